package io.streamgrid.client;

import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.config.NearCacheConfig;

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

    /**
     * The Hazelcast client configuration these settings mean: smart routing to every member,
     * connect timeout, near caches (invalidated on change), JDK logging. The one place a client
     * configuration is built, for this API and for tools that need a raw Hazelcast client.
     */
    public ClientConfig toHazelcastConfig() {
        final ClientConfig config = new ClientConfig();
        config.setClusterName(clusterName);
        config.setProperty("hazelcast.logging.type", "jdk");
        config.getNetworkConfig().setAddresses(addresses);
        config.getConnectionStrategyConfig().getConnectionRetryConfig().setClusterConnectTimeoutMillis(connectTimeout.toMillis());
        for (final String map : nearCacheMaps) {
            config.addNearCacheConfig(new NearCacheConfig(map).setInvalidateOnChange(true));
        }
        return config;
    }

    public ClientSettings withConnectTimeout(final Duration timeout) {
        return new ClientSettings(clusterName, addresses, timeout, nearCacheMaps);
    }

    public ClientSettings withNearCache(final String map) {
        final java.util.HashSet<String> maps = new java.util.HashSet<>(nearCacheMaps);
        maps.add(map);
        return new ClientSettings(clusterName, addresses, connectTimeout, maps);
    }
}
