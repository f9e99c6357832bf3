package io.streamgrid.jobs.schema;

/**
 * The value types of an event field, each with a fixed width in the record layout (so every field
 * sits at a fixed offset and is read without parsing). Strings are stored in UTF-8 in a slot of
 * their declared maximum byte length, preceded by a 2-byte length.
 */
public enum FieldType {
    /** 32-bit signed integer. */
    INT(4),
    /** 64-bit signed integer. */
    LONG(8),
    /** 64-bit IEEE 754; NaN and infinities are refused. */
    DOUBLE(8),
    BOOLEAN(1),
    /** Milliseconds since the epoch, not negative. */
    TIMESTAMP(8),
    /** One of the field's declared symbols, stored as its 2-byte ordinal. */
    ENUM(2),
    /** UTF-8 text of at most the field's declared byte length; the slot is 2 + that length. */
    STRING(2);

    private final int fixedWidth;

    FieldType(final int fixedWidth) {
        this.fixedWidth = fixedWidth;
    }

    /** Bytes the value takes in a record; for strings, plus the declared maximum length. */
    int width(final int maxLength) {
        return this == STRING ? fixedWidth + maxLength : fixedWidth;
    }

    /**
     * The type called {@code yamlName} (any case).
     *
     * @throws IllegalArgumentException naming the known types when there is none
     */
    public static FieldType fromYaml(final String yamlName) {
        for (final FieldType type : values()) {
            if (type.yamlName().equals(yamlName.toLowerCase(java.util.Locale.ROOT))) {
                return type;
            }
        }
        throw new IllegalArgumentException("unknown type '" + yamlName + "': use one of "
                + java.util.Arrays.stream(values()).map(FieldType::yamlName).collect(java.util.stream.Collectors.joining(", ")));
    }

    /** The name used in YAML: lower case. */
    public String yamlName() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
