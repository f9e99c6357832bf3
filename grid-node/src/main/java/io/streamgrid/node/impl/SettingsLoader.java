package io.streamgrid.node.impl;

import io.streamgrid.jobs.ingest.LogRetention;
import io.streamgrid.node.ConfigException;
import io.streamgrid.node.MemberAddress;
import io.streamgrid.node.NodeSettings;
import io.streamgrid.node.PersistenceSettings;
import org.snakeyaml.engine.v2.api.Load;
import org.snakeyaml.engine.v2.api.LoadSettings;
import org.snakeyaml.engine.v2.exceptions.YamlEngineException;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads {@code streamgrid-defaults.yaml} from the class path, lays a user file over it and converts
 * the result to {@link NodeSettings}. The defaults file is the schema: a user key it does not have
 * is an error, and a user value must have the kind (mapping, list, scalar) of the default.
 */
public final class SettingsLoader {
    public static final String DEFAULTS_RESOURCE = "streamgrid-defaults.yaml";
    /** Sections whose keys are the user's own names (checked by their own parsers, not against the defaults). */
    private static final java.util.Set<String> FREE_FORM = java.util.Set.of("schemas", "state-maps.ttl-seconds");

    private SettingsLoader() {
    }

    public static NodeSettings load(final Optional<Path> userFile, final NodeSettings.Overrides overrides) {
        return settings(ConfigTree.load(userFile), overrides);
    }

    /** The defaults with {@code userFile} laid over them, checked against the defaults' shape. */
    static Map<String, Object> tree(final Optional<Path> userFile) {
        final Map<String, Object> merged = defaults();
        userFile.ifPresent(file -> mergeInto(merged, readYaml(file), ""));
        return merged;
    }

    /** The shipped defaults as a mutable tree. */
    static Map<String, Object> defaults() {
        try (InputStream in = SettingsLoader.class.getClassLoader().getResourceAsStream(DEFAULTS_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("bug: " + DEFAULTS_RESOURCE + " is missing from the class path");
            }
            return asMapping(parse(new String(in.readAllBytes(), StandardCharsets.UTF_8), DEFAULTS_RESOURCE), DEFAULTS_RESOURCE);
        } catch (final IOException e) {
            throw new IllegalStateException("bug: cannot read " + DEFAULTS_RESOURCE, e);
        }
    }

    private static Map<String, Object> readYaml(final Path file) {
        final String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new ConfigException("cannot read config file " + file + " (" + describe(e)
                    + "): check the path and its permissions", e);
        }
        final Object tree = parse(text, file.toString());
        if (tree == null) {
            return new LinkedHashMap<>(); // an empty file changes nothing
        }
        return asMapping(tree, "config file " + file);
    }

    private static Object parse(final String text, final String label) {
        try {
            return new Load(LoadSettings.builder().setLabel(label).build()).loadFromString(text);
        } catch (final YamlEngineException e) {
            throw new ConfigException("config file " + label + " is not valid YAML: "
                    + e.getMessage().replaceAll("\\s+", " ").trim(), e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> asMapping(final Object tree, final String what) {
        if (!(tree instanceof Map)) {
            throw new ConfigException(what + " must be a YAML mapping of settings (key: value), see " + DEFAULTS_RESOURCE);
        }
        return new LinkedHashMap<>((Map<String, Object>) tree);
    }

    /** Lays {@code user} over {@code target}; both trees have the defaults' shape afterwards. */
    static void mergeInto(final Map<String, Object> target, final Map<?, ?> user, final String prefix) {
        for (final Map.Entry<?, ?> entry : user.entrySet()) {
            final String key = String.valueOf(entry.getKey());
            final String path = prefix + key;
            if (!target.containsKey(key)) {
                throw new ConfigException("unknown key '" + path + "'"
                        + (prefix.isEmpty() ? "" : " under '" + prefix.substring(0, prefix.length() - 1) + "'")
                        + ": known keys are " + String.join(", ", target.keySet()));
            }
            final Object defaultValue = target.get(key);
            final Object value = entry.getValue();
            if (FREE_FORM.contains(path)) {
                if (!(value instanceof Map)) {
                    throw new ConfigException("'" + path + "' must be a mapping, found: " + value);
                }
                target.put(key, value); // its own rules: checked by its parser
            } else if (defaultValue instanceof Map) {
                if (!(value instanceof Map)) {
                    throw new ConfigException("'" + path + "' must be a mapping with keys "
                            + ((Map<?, ?>) defaultValue).keySet() + ", found: " + value);
                }
                final Map<String, Object> child = asMapping(defaultValue, path);
                mergeInto(child, (Map<?, ?>) value, path + ".");
                target.put(key, child);
            } else {
                target.put(key, value);
            }
        }
    }

    /** The member settings in {@code tree}, with {@code overrides} applied. */
    public static NodeSettings settings(final ConfigTree tree, final NodeSettings.Overrides overrides) {
        return new NodeSettings(
                overrides.clusterName().orElseGet(() -> tree.string("cluster-name")),
                overrides.host().orElseGet(() -> tree.string("network.host")),
                tree.bool("network.bind-any"),
                overrides.port().orElseGet(() -> tree.integer("network.port")),
                overrides.members().orElseGet(() -> members(tree)),
                tree.integer("network.join-wait-seconds"),
                tree.integer("network.heartbeat-timeout-seconds"),
                overrides.dataDir().orElseGet(() -> Path.of(tree.string("data-dir"))),
                tree.integer("state-maps.backup-count"),
                tree.integer("state-maps.async-backup-count"),
                tree.integer("state-maps.event-journal-capacity"),
                tree.bool("split-brain-protection.enabled"),
                tree.integer("split-brain-protection.minimum-cluster-size"),
                tree.integer("shutdown.graceful-max-wait-seconds"),
                tree.integer("migration.max-parallel-migrations"),
                tree.integer("migration.retry-pause-millis"),
                tree.bool("migration.prompt-move-notices"),
                tree.bool("jet.enabled"),
                tree.integer("jet.cooperative-thread-count"),
                tree.bool("health-check.enabled"),
                tree.bool("metrics.enabled"),
                tree.string("metrics.host"),
                overrides.metricsPort().orElseGet(() -> tree.integer("metrics.port")),
                JobCatalog.ingestDir(tree),
                JobCatalog.kafkaLogs(tree),
                tree.integer("ingest.partitions"),
                tree.bool("ingest.allow-network-file-system"),
                ingestRetention(tree),
                tree.integer("ingest.retention.check-seconds"),
                tree.integer("side-maps.ttl-seconds"),
                tree.integer("side-maps.max-entries-per-member"),
                stateTtls(tree),
                tree.bool("jobs.allow-code-upload"),
                tree.bool("jobs.allow-io-connectors"),
                tree.integer("jobs.snapshot-entry-bytes"),
                deserializationAllowed(tree),
                SchemaSettings.parse(tree.mapping("schemas")),
                persistence(tree));
    }

    /** {@code ingest.retention}: days and MiB per log, 0 for no limit. */
    private static LogRetention.Rule ingestRetention(final ConfigTree tree) {
        final int days = tree.integer("ingest.retention.days");
        final int mib = tree.integer("ingest.retention.max-mib-per-log");
        if (days < 0) {
            throw new ConfigException("ingest.retention.days is " + days + ": give 0 (keep every day) or more");
        }
        if (mib < 0) {
            throw new ConfigException("ingest.retention.max-mib-per-log is " + mib + ": give 0 (no size limit) or more");
        }
        return new LogRetention.Rule(days, mib * 1024L * 1024L);
    }

    /** {@code serialization.java-allow}: prefixes checked as the member's filter will use them. */
    public static List<String> deserializationAllowed(final ConfigTree tree) {
        final List<String> prefixes = tree.list("serialization.java-allow").stream().map(String::valueOf).toList();
        try {
            io.streamgrid.client.ClientSettings.javaDeserializationFilter(prefixes, "serialization.java-allow");
        } catch (final IllegalArgumentException e) {
            throw new ConfigException(e.getMessage());
        }
        return prefixes;
    }

    /** The {@code persistence} section, with the Cassandra cluster of the {@code cassandra} section. */
    static PersistenceSettings persistence(final ConfigTree tree) {
        final List<String> maps = tree.list("persistence.maps").stream().map(String::valueOf).toList();
        return new PersistenceSettings(tree.bool("persistence.enabled"), maps,
                choice(tree, "persistence.write-mode", PersistenceSettings.WriteMode.class),
                tree.integer("persistence.write-delay-seconds"), tree.integer("persistence.write-batch-size"),
                choice(tree, "persistence.initial-load", PersistenceSettings.InitialLoad.class),
                JobCatalog.cassandraTarget(tree), tree.string("persistence.table"),
                tree.bool("persistence.jobs"));
    }

    /** The constant of {@code type} written in lower case with dashes at {@code path}, e.g. write-behind. */
    private static <E extends Enum<E>> E choice(final ConfigTree tree, final String path, final Class<E> type) {
        final String text = tree.string(path);
        for (final E constant : type.getEnumConstants()) {
            if (constant.name().replace('_', '-').equalsIgnoreCase(text)) {
                return constant;
            }
        }
        final List<String> names = java.util.Arrays.stream(type.getEnumConstants())
                .map(c -> c.name().replace('_', '-').toLowerCase(java.util.Locale.ROOT)).toList();
        throw new ConfigException(path + " is '" + text + "': choose one of " + String.join(", ", names));
    }

    /**
     * The state maps' TTLs: {@code state-maps.ttl-seconds} (map name or pattern → seconds), and
     * {@code jobs.<name>.state-ttl-seconds} of each built-in job for each state map it writes (the
     * longer wins where both name a map); 0 (keep) left out.
     */
    private static Map<String, Integer> stateTtls(final ConfigTree tree) {
        final Map<String, Integer> ttlByMap = new LinkedHashMap<>();
        tree.mapping("state-maps.ttl-seconds").forEach((name, seconds) -> {
            final String map = String.valueOf(name);
            if (!map.startsWith("state.")) {
                throw new ConfigException("state-maps.ttl-seconds names '" + map + "': only state maps (state.*) take a TTL here");
            }
            if (!(seconds instanceof Integer ttl) || ttl < 0) {
                throw new ConfigException("state-maps.ttl-seconds of " + map + " is " + seconds + ": it must be a whole number of"
                        + " seconds from 0 (keep) up");
            }
            if (ttl > 0) {
                ttlByMap.merge(map, ttl, Math::max);
            }
        });
        for (final String name : JobCatalog.NAMES) {
            final int ttl = tree.integer("jobs." + name + ".state-ttl-seconds");
            if (ttl < 0) {
                throw new ConfigException("jobs." + name + ".state-ttl-seconds is " + ttl + ": it must be from 0 (keep) up");
            }
            if (ttl > 0) {
                for (final String map : JobCatalog.job(name, tree).stateMaps()) {
                    ttlByMap.merge(map, ttl, Math::max);
                }
            }
        }
        return ttlByMap;
    }

    /** The members of the TCP/IP join list in {@code tree}. */
    public static List<MemberAddress> members(final ConfigTree tree) {
        final List<MemberAddress> members = new ArrayList<>();
        for (final Object item : tree.list("network.members")) {
            members.add(MemberAddress.parse(String.valueOf(item)));
        }
        return members;
    }

    private static String describe(final IOException e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
}
