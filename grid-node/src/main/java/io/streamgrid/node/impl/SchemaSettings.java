package io.streamgrid.node.impl;

import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.Field;
import io.streamgrid.jobs.schema.FieldType;
import io.streamgrid.node.ConfigException;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code schemas:} section: user event types, one mapping per schema name —
 * <pre>
 * schemas:
 *   trade:
 *     version: 1
 *     key: account
 *     event-time: ts
 *     fields:
 *       - {name: account, type: string, max-length: 16}
 *       - {name: ts, type: timestamp}
 *       - {name: side, type: enum, symbols: [BUY, SELL]}
 *       - {name: desk, type: string, max-length: 8, default: main}
 * </pre>
 * Every mistake is a {@link ConfigException} naming the schema, the field and the fix.
 */
public final class SchemaSettings {
    private static final Set<String> SCHEMA_KEYS = Set.of("version", "key", "event-time", "fields");
    private static final Set<String> FIELD_KEYS = Set.of("name", "type", "max-length", "symbols", "default");

    private SchemaSettings() {
    }

    /** The schemas declared under {@code schemas}, in file order. */
    public static List<EventSchema> parse(final Map<?, ?> section) {
        final List<EventSchema> schemas = new ArrayList<>();
        for (final Map.Entry<?, ?> entry : section.entrySet()) {
            final String name = String.valueOf(entry.getKey());
            final String at = "schemas." + name;
            if (EventType.ofSchema(name) != null) {
                throw new ConfigException("'" + at + "': " + name + " is a built-in type's schema; give yours another name");
            }
            final Map<?, ?> spec = mapping(entry.getValue(), at, "a mapping with keys " + SCHEMA_KEYS);
            checkKeys(spec, SCHEMA_KEYS, at);
            final Object fieldList = spec.get("fields");
            if (!(fieldList instanceof List<?> items) || items.isEmpty()) {
                throw new ConfigException("'" + at + ".fields' must be a list of fields ({name: ..., type: ...}), found: " + fieldList);
            }
            final List<Field> fields = new ArrayList<>();
            for (int i = 0; i < items.size(); i++) {
                fields.add(field(items.get(i), at + ".fields[" + i + "]"));
            }
            try {
                schemas.add(new EventSchema(name, spec.containsKey("version") ? integer(spec.get("version"), at + ".version") : 1,
                        text(spec.get("key"), at + ".key"), text(spec.get("event-time"), at + ".event-time"), fields));
            } catch (final IllegalArgumentException e) {
                throw new ConfigException("invalid '" + at + "': " + e.getMessage(), e);
            }
        }
        return schemas;
    }

    private static Field field(final Object item, final String at) {
        final Map<?, ?> spec = mapping(item, at, "a mapping like {name: price, type: double}");
        checkKeys(spec, FIELD_KEYS, at);
        final String name = text(spec.get("name"), at + ".name");
        final String where = at + " (" + name + ")";
        final String typeName = text(spec.get("type"), where + ".type");
        final FieldType type;
        try {
            type = FieldType.fromYaml(typeName);
        } catch (final IllegalArgumentException e) {
            throw new ConfigException("'" + where + "': " + e.getMessage());
        }
        final int maxLength = spec.containsKey("max-length") ? integer(spec.get("max-length"), where + ".max-length") : 0;
        final List<String> symbols = new ArrayList<>();
        if (spec.get("symbols") instanceof List<?> list) {
            list.forEach(symbol -> symbols.add(String.valueOf(symbol)));
        } else if (spec.containsKey("symbols")) {
            throw new ConfigException("'" + where + ".symbols' must be a list, found: " + spec.get("symbols"));
        }
        try {
            final Field field = new Field(name, type, maxLength, symbols, null);
            return spec.containsKey("default") ? field.withDefault(defaultValue(type, spec.get("default"))) : field;
        } catch (final IllegalArgumentException e) {
            throw new ConfigException("invalid '" + where + "': " + e.getMessage(), e);
        }
    }

    /** YAML numbers come as Integer or Long or Double; a field's default needs its exact Java type. */
    private static Object defaultValue(final FieldType type, final Object value) {
        return switch (type) {
            case LONG, TIMESTAMP -> value instanceof Integer i ? Long.valueOf(i) : value;
            case DOUBLE -> value instanceof Number n ? Double.valueOf(n.doubleValue()) : value;
            case STRING, ENUM -> value == null ? null : String.valueOf(value);
            default -> value;
        };
    }

    private static Map<?, ?> mapping(final Object value, final String at, final String expected) {
        if (value instanceof Map<?, ?> map) {
            return map;
        }
        throw new ConfigException("'" + at + "' must be " + expected + ", found: " + value);
    }

    private static void checkKeys(final Map<?, ?> spec, final Set<String> known, final String at) {
        for (final Object key : spec.keySet()) {
            if (!known.contains(String.valueOf(key))) {
                throw new ConfigException("unknown key '" + at + "." + key + "': known keys are " + known.stream().sorted().toList());
            }
        }
    }

    private static String text(final Object value, final String at) {
        if (value instanceof String s && !s.isBlank()) {
            return s;
        }
        throw new ConfigException("'" + at + "' must be a name, found: " + value);
    }

    private static int integer(final Object value, final String at) {
        if (value instanceof Integer i) {
            return i;
        }
        throw new ConfigException("'" + at + "' must be a whole number, found: " + value);
    }
}
