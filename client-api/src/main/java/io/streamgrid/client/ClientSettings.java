package io.streamgrid.client;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * How to reach a StreamGrid cluster.
 *
 * @param addresses      host:port of some members
 * @param connectTimeout how long {@link StreamGridClient#connect} waits for a member to answer
 * @param nearCacheMaps  maps whose hot keys the client caches (invalidated on change)
 */
public record ClientSettings(String clusterName, List<String> addresses, Duration connectTimeout, Set<String> nearCacheMaps) {
    public ClientSettings {
        addresses = List.copyOf(addresses);
        nearCacheMaps = Set.copyOf(nearCacheMaps);
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException("at least one member address (host:port) is needed");
        }
    }

    public static ClientSettings of(final String clusterName, final List<String> addresses) {
        return new ClientSettings(clusterName, addresses, Duration.ofSeconds(30), Set.of());
    }

    public ClientSettings withNearCache(final String map) {
        final java.util.HashSet<String> maps = new java.util.HashSet<>(nearCacheMaps);
        maps.add(map);
        return new ClientSettings(clusterName, addresses, connectTimeout, maps);
    }
}
