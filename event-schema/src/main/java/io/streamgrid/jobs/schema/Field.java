package io.streamgrid.jobs.schema;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One field of an {@link EventSchema}: name, type and, for the types that need them, the maximum
 * UTF-8 byte length (strings) or the symbols (enums). A default value makes the field an allowed
 * addition to an existing schema: records written before it existed read the default.
 *
 * @param maxLength    for STRING: the maximum length in UTF-8 bytes, 1 to 4096; otherwise 0
 * @param symbols      for ENUM: the symbols in ordinal order, 1 to 32767 distinct; otherwise empty
 * @param defaultValue null (no default), or a value of the field's Java type: Integer, Long,
 *                     Double, Boolean, Long (timestamp), String (enum symbol or string)
 */
public record Field(String name, FieldType type, int maxLength, List<String> symbols, Object defaultValue)
        implements Serializable {
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,62}");
    public static final int MAX_STRING_BYTES = 4096;

    public Field {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("field name '" + name
                    + "' must be lower-case letters, digits and _, starting with a letter, at most 63 characters");
        }
        Objects.requireNonNull(type, "type of field " + name);
        symbols = List.copyOf(symbols);
        if (type == FieldType.STRING) {
            if (maxLength < 1 || maxLength > MAX_STRING_BYTES) {
                throw new IllegalArgumentException("string field " + name + " needs a max-length of 1 to " + MAX_STRING_BYTES
                        + " bytes, was " + maxLength);
            }
        } else if (maxLength != 0) {
            throw new IllegalArgumentException("field " + name + " is " + type.yamlName() + ": only strings take a max-length");
        }
        if (type == FieldType.ENUM) {
            if (symbols.isEmpty() || symbols.size() > Short.MAX_VALUE || new HashSet<>(symbols).size() != symbols.size()) {
                throw new IllegalArgumentException("enum field " + name + " needs 1 to 32767 distinct symbols, was " + symbols);
            }
        } else if (!symbols.isEmpty()) {
            throw new IllegalArgumentException("field " + name + " is " + type.yamlName() + ": only enums take symbols");
        }
        if (defaultValue != null) {
            final String problem = problemWith(type, maxLength, symbols, defaultValue);
            if (problem != null) {
                throw new IllegalArgumentException("default of field " + name + ": " + problem);
            }
        }
    }

    public static Field int32(final String name) {
        return new Field(name, FieldType.INT, 0, List.of(), null);
    }

    public static Field int64(final String name) {
        return new Field(name, FieldType.LONG, 0, List.of(), null);
    }

    public static Field float64(final String name) {
        return new Field(name, FieldType.DOUBLE, 0, List.of(), null);
    }

    public static Field bool(final String name) {
        return new Field(name, FieldType.BOOLEAN, 0, List.of(), null);
    }

    public static Field timestamp(final String name) {
        return new Field(name, FieldType.TIMESTAMP, 0, List.of(), null);
    }

    public static Field enumOf(final String name, final String... symbols) {
        return new Field(name, FieldType.ENUM, 0, List.of(symbols), null);
    }

    public static Field string(final String name, final int maxLength) {
        return new Field(name, FieldType.STRING, maxLength, List.of(), null);
    }

    /** This field with a default value, which makes it an allowed addition to an existing schema. */
    public Field withDefault(final Object value) {
        return new Field(name, type, maxLength, symbols, value);
    }

    /** Bytes the field takes in a record. */
    public int width() {
        return type.width(maxLength);
    }

    /** Null when {@code value} fits this field (type, range, length), else the reason. */
    public String problemWith(final Object value) {
        return problemWith(type, maxLength, symbols, value);
    }

    private static String problemWith(final FieldType type, final int maxLength, final List<String> symbols, final Object value) {
        return switch (type) {
            case INT -> value instanceof Integer ? null : "needs an int, got " + describe(value);
            case LONG -> value instanceof Long ? null : "needs a long, got " + describe(value);
            case DOUBLE -> value instanceof Double d ? (Double.isFinite(d) ? null : "is not a finite number: " + d)
                    : "needs a double, got " + describe(value);
            case BOOLEAN -> value instanceof Boolean ? null : "needs true or false, got " + describe(value);
            case TIMESTAMP -> value instanceof Long l ? (l >= 0 ? null : "is a negative timestamp: " + l)
                    : "needs a timestamp (epoch milliseconds), got " + describe(value);
            case ENUM -> value instanceof String s && symbols.contains(s) ? null : "needs one of " + symbols + ", got " + describe(value);
            case STRING -> !(value instanceof String s) ? "needs a string, got " + describe(value)
                    : s.getBytes(StandardCharsets.UTF_8).length > maxLength
                    ? "is " + s.getBytes(StandardCharsets.UTF_8).length + " bytes long, at most " + maxLength + " allowed" : null;
        };
    }

    private static String describe(final Object value) {
        return value == null ? "nothing" : value.getClass().getSimpleName() + " " + value;
    }
}
