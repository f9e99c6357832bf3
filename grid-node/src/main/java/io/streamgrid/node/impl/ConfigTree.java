package io.streamgrid.node.impl;

import io.streamgrid.node.ConfigException;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The merged configuration (shipped defaults, then a user file), read by dotted path such as
 * {@code jobs.ip-traffic.window-ms}. Every path the code reads exists in the defaults; a value of
 * the wrong kind in a user file is a {@link ConfigException} naming the path and the value.
 */
public final class ConfigTree {
    private final Map<String, Object> root;

    private ConfigTree(final Map<String, Object> root) {
        this.root = root;
    }

    /** Defaults from the jar with {@code userFile} laid over them. */
    public static ConfigTree load(final Optional<Path> userFile) {
        return new ConfigTree(SettingsLoader.tree(userFile));
    }

    public int integer(final String path) {
        final Object value = get(path);
        if (value instanceof Integer i) {
            return i;
        }
        throw new ConfigException("'" + path + "' must be a whole number, found: " + value);
    }

    public long wholeNumber(final String path) {
        final Object value = get(path);
        if (value instanceof Integer || value instanceof Long) {
            return ((Number) value).longValue();
        }
        throw new ConfigException("'" + path + "' must be a whole number, found: " + value);
    }

    public double decimal(final String path) {
        final Object value = get(path);
        if (value instanceof Number n) {
            return n.doubleValue();
        }
        throw new ConfigException("'" + path + "' must be a number, found: " + value);
    }

    public boolean bool(final String path) {
        final Object value = get(path);
        if (value instanceof Boolean b) {
            return b;
        }
        throw new ConfigException("'" + path + "' must be true or false, found: " + value);
    }

    public String string(final String path) {
        final Object value = get(path);
        if (value instanceof String || value instanceof Number) {
            return String.valueOf(value);
        }
        throw new ConfigException("'" + path + "' must be a text value, found: " + value);
    }

    public Map<?, ?> mapping(final String path) {
        final Object value = get(path);
        if (value instanceof Map<?, ?> map) {
            return map;
        }
        throw new ConfigException("'" + path + "' must be a mapping, found: " + value);
    }

    public List<?> list(final String path) {
        final Object value = get(path);
        if (value instanceof List<?> list) {
            return list;
        }
        throw new ConfigException("'" + path + "' must be a list, found: " + value);
    }

    private Object get(final String path) {
        Object node = root;
        for (final String segment : path.split("\\.")) {
            if (!(node instanceof Map<?, ?> map) || !map.containsKey(segment)) {
                throw new IllegalStateException("bug: '" + path + "' is not in " + SettingsLoader.DEFAULTS_RESOURCE);
            }
            node = map.get(segment);
        }
        return node;
    }
}
