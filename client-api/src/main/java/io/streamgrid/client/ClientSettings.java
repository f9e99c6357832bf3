package io.streamgrid.client;

import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.config.ClassFilter;
import com.hazelcast.config.JavaSerializationFilterConfig;
import com.hazelcast.config.NearCacheConfig;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * How to reach a StreamGrid cluster.
 *
 * @param addresses              host:port of some members
 * @param connectTimeout         how long {@link StreamGridClient#connect} waits for a member to answer
 * @param nearCacheMaps          maps whose hot keys the client caches (invalidated on change)
 * @param deserializationAllowed class-name prefixes (packages ending in '.', or whole class names)
 *                               whose Java-serialized objects this client accepts besides
 *                               {@link #ALWAYS_DESERIALIZABLE}: the packages of your own
 *                               {@code Serializable} values
 */
public record ClientSettings(String clusterName, List<String> addresses, Duration connectTimeout, Set<String> nearCacheMaps,
                             Set<String> deserializationAllowed) {
    /**
     * What Java deserialization accepts on every StreamGrid member and client: the JDK's
     * {@code java.*} (except {@code java.rmi.*}, whose remote references reach out to the network),
     * Hazelcast's classes, StreamGrid's, and arrays. Anything else is refused by name before its
     * class is loaded ({@code SecurityException: Resolving class … is not allowed}) unless listed
     * in {@link #deserializationAllowed} (or, on members, {@code serialization.java-allow}).
     */
    public static final List<String> ALWAYS_DESERIALIZABLE = List.of("java.", "com.hazelcast.", "io.streamgrid.", "[");
    private static final List<String> NEVER_DESERIALIZABLE = List.of("java.rmi.");
    private static final Pattern CLASS_NAME_PREFIX = Pattern.compile("[A-Za-z_$][\\w$]*(\\.[A-Za-z_$][\\w$]*)*\\.?");

    public ClientSettings {
        addresses = List.copyOf(addresses);
        nearCacheMaps = Set.copyOf(nearCacheMaps);
        deserializationAllowed = Set.copyOf(checkedPrefixes(deserializationAllowed, "deserializationAllowed"));
        if (addresses.isEmpty()) {
            throw new IllegalArgumentException("at least one member address (host:port) is needed");
        }
    }

    public ClientSettings(final String clusterName, final List<String> addresses, final Duration connectTimeout,
                          final Set<String> nearCacheMaps) {
        this(clusterName, addresses, connectTimeout, nearCacheMaps, Set.of());
    }

    public static ClientSettings of(final String clusterName, final List<String> addresses) {
        return new ClientSettings(clusterName, addresses, Duration.ofSeconds(30), Set.of());
    }

    /**
     * The Java deserialization filter of StreamGrid, for members and clients alike (the one place
     * it is built): {@link #ALWAYS_DESERIALIZABLE} plus {@code allowed}, {@code java.rmi.*} never.
     * Members add to its deny list the connectors they refuse (grid-node's
     * {@code jobs.allow-io-connectors}).
     *
     * @throws IllegalArgumentException naming {@code setting} when a prefix is not a package or class name
     */
    public static JavaSerializationFilterConfig javaDeserializationFilter(final Collection<String> allowed, final String setting) {
        final ClassFilter allow = new ClassFilter();
        ALWAYS_DESERIALIZABLE.forEach(allow::addPrefixes);
        checkedPrefixes(allowed, setting).forEach(allow::addPrefixes);
        final ClassFilter deny = new ClassFilter();
        NEVER_DESERIALIZABLE.forEach(deny::addPrefixes);
        // Defaults off: Hazelcast's own default allow-list admits every name starting with "java", javax.* included.
        return new JavaSerializationFilterConfig().setDefaultsDisabled(true).setWhitelist(allow).setBlacklist(deny);
    }

    private static Collection<String> checkedPrefixes(final Collection<String> prefixes, final String setting) {
        final Set<String> checked = new TreeSet<>();
        for (final String prefix : prefixes) {
            if (prefix == null || !CLASS_NAME_PREFIX.matcher(prefix).matches() || !prefix.contains(".")) {
                throw new IllegalArgumentException(setting + " lists '" + prefix + "': give a package ending in '.' (com.acme.) "
                        + "or a whole class name (com.acme.Position)");
            }
            checked.add(prefix);
        }
        return checked;
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
        config.getSerializationConfig().setJavaSerializationFilterConfig(
                javaDeserializationFilter(deserializationAllowed, "deserializationAllowed"));
        return config;
    }

    public ClientSettings withConnectTimeout(final Duration timeout) {
        return new ClientSettings(clusterName, addresses, timeout, nearCacheMaps, deserializationAllowed);
    }

    /** These settings, also accepting Java-serialized objects of classes under {@code prefix} (e.g. com.acme.). */
    public ClientSettings withDeserializationAllowed(final String prefix) {
        final java.util.HashSet<String> allowed = new java.util.HashSet<>(deserializationAllowed);
        allowed.add(prefix);
        return new ClientSettings(clusterName, addresses, connectTimeout, nearCacheMaps, allowed);
    }

    public ClientSettings withNearCache(final String map) {
        final java.util.HashSet<String> maps = new java.util.HashSet<>(nearCacheMaps);
        maps.add(map);
        return new ClientSettings(clusterName, addresses, connectTimeout, maps, deserializationAllowed);
    }
}
