package io.streamgrid.node.impl;

import io.streamgrid.node.ConfigException;
import io.streamgrid.node.MemberAddress;
import io.streamgrid.node.NodeSettings;
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

    private SettingsLoader() {
    }

    public static NodeSettings load(final Optional<Path> userFile, final NodeSettings.Overrides overrides) {
        final Map<String, Object> merged = defaults();
        userFile.ifPresent(file -> mergeInto(merged, readYaml(file), ""));
        return toSettings(merged, overrides);
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
            if (defaultValue instanceof Map) {
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

    private static NodeSettings toSettings(final Map<String, Object> tree, final NodeSettings.Overrides overrides) {
        final Map<String, Object> network = section(tree, "network");
        final Map<String, Object> stateMaps = section(tree, "state-maps");
        final Map<String, Object> splitBrain = section(tree, "split-brain-protection");
        final Map<String, Object> shutdown = section(tree, "shutdown");
        final Map<String, Object> jet = section(tree, "jet");
        final Map<String, Object> health = section(tree, "health-check");

        final int port = overrides.port().orElseGet(() -> integer(network, "network.port"));
        return new NodeSettings(
                overrides.clusterName().orElseGet(() -> string(tree, "cluster-name")),
                overrides.host().orElseGet(() -> string(network, "network.host")),
                port,
                overrides.members().orElseGet(() -> members(network)),
                integer(network, "network.join-wait-seconds"),
                integer(network, "network.heartbeat-timeout-seconds"),
                overrides.dataDir().orElseGet(() -> Path.of(string(tree, "data-dir"))),
                integer(stateMaps, "state-maps.backup-count"),
                integer(stateMaps, "state-maps.async-backup-count"),
                integer(stateMaps, "state-maps.event-journal-capacity"),
                bool(splitBrain, "split-brain-protection.enabled"),
                integer(splitBrain, "split-brain-protection.minimum-cluster-size"),
                integer(shutdown, "shutdown.graceful-max-wait-seconds"),
                bool(jet, "jet.enabled"),
                integer(jet, "jet.cooperative-thread-count"),
                bool(health, "health-check.enabled"));
    }

    private static List<MemberAddress> members(final Map<String, Object> network) {
        final Object value = network.get("members");
        if (!(value instanceof List)) {
            throw new ConfigException("'network.members' must be a list of host:port, e.g. [127.0.0.1:5701], found: " + value);
        }
        final List<MemberAddress> members = new ArrayList<>();
        for (final Object item : (List<?>) value) {
            members.add(MemberAddress.parse(String.valueOf(item)));
        }
        return members;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> section(final Map<String, Object> tree, final String key) {
        return (Map<String, Object>) tree.get(key);
    }

    private static String lastSegment(final String path) {
        return path.substring(path.lastIndexOf('.') + 1);
    }

    private static int integer(final Map<String, Object> section, final String path) {
        final Object value = section.get(lastSegment(path));
        if (value instanceof Integer i) {
            return i;
        }
        throw new ConfigException("'" + path + "' must be a whole number, found: " + value);
    }

    private static boolean bool(final Map<String, Object> section, final String path) {
        final Object value = section.get(lastSegment(path));
        if (value instanceof Boolean b) {
            return b;
        }
        throw new ConfigException("'" + path + "' must be true or false, found: " + value);
    }

    private static String string(final Map<String, Object> section, final String path) {
        final Object value = section.get(lastSegment(path));
        if (value instanceof String || value instanceof Number) {
            return String.valueOf(value);
        }
        throw new ConfigException("'" + path + "' must be a text value, found: " + value);
    }

    private static String describe(final IOException e) {
        return e.getClass().getSimpleName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
    }
}
