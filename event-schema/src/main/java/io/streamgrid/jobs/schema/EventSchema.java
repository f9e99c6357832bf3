package io.streamgrid.jobs.schema;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * A user-declared event type: its name and version, its fields, which field is the key (a LONG or
 * a STRING field) and which is the event time (a TIMESTAMP field). Immutable and validated; built
 * with {@link #builder(String)} or read from the {@code schemas:} section of the configuration.
 *
 * <p>Records of a schema have a fixed layout derived from it ({@link #layout()}): a header, then
 * every field at a fixed offset in declaration order. A later version may only <em>append</em>
 * fields, each with a default ({@link #checkSuccessorOf}): then a reader of either version reads
 * records of both — the older reader ignores the tail it does not know, the newer one reads the
 * defaults where an older record ends.
 */
public record EventSchema(String name, int version, String keyField, String eventTimeField, List<Field> fields)
        implements Serializable {
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_-]{0,62}");

    public EventSchema {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("schema name '" + name
                    + "' must be lower-case letters, digits, _ and -, starting with a letter, at most 63 characters");
        }
        if (version < 1 || version > Short.MAX_VALUE) {
            throw new IllegalArgumentException("schema " + name + ": version must be 1 to 32767, was " + version);
        }
        fields = List.copyOf(fields);
        final Set<String> names = new HashSet<>();
        for (final Field field : fields) {
            if (!names.add(field.name())) {
                throw new IllegalArgumentException("schema " + name + " declares field " + field.name() + " twice");
            }
        }
        final Field key = find(name, fields, keyField, "key");
        if (key.type() != FieldType.LONG && key.type() != FieldType.STRING) {
            throw new IllegalArgumentException("schema " + name + ": key field " + keyField + " must be long or string, is "
                    + key.type().yamlName());
        }
        final Field time = find(name, fields, eventTimeField, "event-time");
        if (time.type() != FieldType.TIMESTAMP) {
            throw new IllegalArgumentException("schema " + name + ": event-time field " + eventTimeField
                    + " must be a timestamp, is " + time.type().yamlName());
        }
    }

    private static Field find(final String schema, final List<Field> fields, final String fieldName, final String role) {
        Objects.requireNonNull(fieldName, role + " field of schema " + schema);
        return fields.stream().filter(f -> f.name().equals(fieldName)).findFirst().orElseThrow(() ->
                new IllegalArgumentException("schema " + schema + ": " + role + " field '" + fieldName + "' is not among its fields "
                        + fields.stream().map(Field::name).toList()));
    }

    /** A builder: {@code EventSchema.builder("trade").stringKey("account", 16).eventTime("ts").float64("price")...build()}. */
    public static Builder builder(final String name) {
        return new Builder(name);
    }

    /** The record layout of this schema; computed once per call, keep it. */
    public SchemaLayout layout() {
        return new SchemaLayout(this);
    }

    /** The field called {@code fieldName}. */
    public Field field(final String fieldName) {
        return find(name, fields, fieldName, "asked-for");
    }

    public TypedField.IntField intField(final String fieldName) {
        return new TypedField.IntField(fieldName, typedIndex(fieldName, FieldType.INT));
    }

    public TypedField.LongField longField(final String fieldName) {
        return new TypedField.LongField(fieldName, typedIndex(fieldName, FieldType.LONG));
    }

    public TypedField.DoubleField doubleField(final String fieldName) {
        return new TypedField.DoubleField(fieldName, typedIndex(fieldName, FieldType.DOUBLE));
    }

    public TypedField.BooleanField booleanField(final String fieldName) {
        return new TypedField.BooleanField(fieldName, typedIndex(fieldName, FieldType.BOOLEAN));
    }

    public TypedField.TimestampField timestampField(final String fieldName) {
        return new TypedField.TimestampField(fieldName, typedIndex(fieldName, FieldType.TIMESTAMP));
    }

    public TypedField.EnumField enumField(final String fieldName) {
        return new TypedField.EnumField(fieldName, typedIndex(fieldName, FieldType.ENUM));
    }

    public TypedField.StringField stringField(final String fieldName) {
        return new TypedField.StringField(fieldName, typedIndex(fieldName, FieldType.STRING));
    }

    /**
     * The index of field {@code fieldName}, which must be of {@code type}.
     *
     * @throws IllegalArgumentException when the schema has no such field, or it has another type, naming both
     */
    private int typedIndex(final String fieldName, final FieldType type) {
        final int index = indexOf(fieldName);
        final FieldType actual = fields.get(index).type();
        if (actual != type) {
            throw new IllegalArgumentException("field " + fieldName + " of schema " + name + " is a " + actual.yamlName() + ", not a "
                    + type.yamlName());
        }
        return index;
    }

    /**
     * The position of field {@code fieldName} in {@link #fields()}, which is its index in every
     * version's layout (versions only append).
     *
     * @throws IllegalArgumentException naming the schema's fields when there is none
     */
    int indexOf(final String fieldName) {
        for (int i = 0; i < fields.size(); i++) {
            if (fields.get(i).name().equals(fieldName)) {
                return i;
            }
        }
        throw new IllegalArgumentException("schema " + name + " has no field '" + fieldName + "'; its fields are "
                + fields.stream().map(Field::name).toList());
    }

    /**
     * Checks that this schema may replace {@code previous} for the records already written: same
     * name, key and event time, a higher version, every earlier field unchanged and in place, added
     * fields only at the end and each with a default.
     *
     * @throws IncompatibleSchemaException naming the field and what changed
     */
    public void checkSuccessorOf(final EventSchema previous) {
        if (!name.equals(previous.name())) {
            throw new IncompatibleSchemaException("schema " + name + " cannot replace schema " + previous.name());
        }
        final String incompatible = incompatibilityWith(previous);
        if (incompatible != null) {
            throw new IncompatibleSchemaException(incompatible);
        }
        if (version <= previous.version() && !equals(previous)) {
            throw new IncompatibleSchemaException("schema " + name + " version " + version + " " + differenceFrom(previous)
                    + " to version " + previous.version() + " already in use: give it version " + (previous.version() + 1));
        }
    }

    /** Why this schema cannot follow {@code previous} whatever its version, naming the field; null when it can. */
    private String incompatibilityWith(final EventSchema previous) {
        if (!keyField.equals(previous.keyField()) || !eventTimeField.equals(previous.eventTimeField())) {
            return "schema " + name + ": the key and event-time fields cannot change (were " + previous.keyField() + " and "
                    + previous.eventTimeField() + ")";
        }
        for (int i = 0; i < previous.fields().size(); i++) {
            final Field old = previous.fields().get(i);
            if (i >= fields.size() || !fields.get(i).name().equals(old.name())) {
                final boolean exists = fields.stream().anyMatch(f -> f.name().equals(old.name()));
                return "schema " + name + ": field " + old.name()
                        + (exists ? " moved; fields may only be added at the end" : " was removed; fields cannot be removed");
            }
            final Field now = fields.get(i);
            if (now.type() != old.type() || now.maxLength() != old.maxLength() || !now.symbols().equals(old.symbols())) {
                return "schema " + name + ": field " + old.name() + " changed from " + describe(old) + " to " + describe(now)
                        + "; a field's type, length and symbols cannot change";
            }
        }
        for (int i = previous.fields().size(); i < fields.size(); i++) {
            if (fields.get(i).defaultValue() == null) {
                return "schema " + name + ": field " + fields.get(i).name() + " was added without a default; records written "
                        + "before it need one";
            }
        }
        return null;
    }

    /** What a compatible change adds or changes relative to {@code previous}: "adds field x, y" or "changes field x's default". */
    private String differenceFrom(final EventSchema previous) {
        if (fields.size() > previous.fields().size()) {
            return "adds field " + String.join(", ", fields.subList(previous.fields().size(), fields.size()).stream().map(Field::name)
                    .toList());
        }
        for (int i = 0; i < fields.size(); i++) {
            if (!fields.get(i).equals(previous.fields().get(i))) {
                return "changes field " + fields.get(i).name() + "'s default";
            }
        }
        return "differs";
    }

    private static String describe(final Field field) {
        return field.type().yamlName() + (field.type() == FieldType.STRING ? "(" + field.maxLength() + ")" : "")
                + (field.type() == FieldType.ENUM ? field.symbols().toString() : "");
    }

    /** Builds an {@link EventSchema}; fields in the order they are added. */
    public static final class Builder {
        private final String name;
        private int version = 1;
        private String keyField;
        private String eventTimeField;
        private final List<Field> fields = new ArrayList<>();

        private Builder(final String name) {
            this.name = name;
        }

        public Builder version(final int value) {
            version = value;
            return this;
        }

        public Builder longKey(final String fieldName) {
            keyField = fieldName;
            return field(Field.int64(fieldName));
        }

        public Builder stringKey(final String fieldName, final int maxLength) {
            keyField = fieldName;
            return field(Field.string(fieldName, maxLength));
        }

        public Builder eventTime(final String fieldName) {
            eventTimeField = fieldName;
            return field(Field.timestamp(fieldName));
        }

        public Builder field(final Field field) {
            fields.add(field);
            return this;
        }

        public Builder int32(final String fieldName) {
            return field(Field.int32(fieldName));
        }

        public Builder int64(final String fieldName) {
            return field(Field.int64(fieldName));
        }

        public Builder float64(final String fieldName) {
            return field(Field.float64(fieldName));
        }

        public Builder bool(final String fieldName) {
            return field(Field.bool(fieldName));
        }

        public Builder timestamp(final String fieldName) {
            return field(Field.timestamp(fieldName));
        }

        public Builder enumOf(final String fieldName, final String... symbols) {
            return field(Field.enumOf(fieldName, symbols));
        }

        public Builder string(final String fieldName, final int maxLength) {
            return field(Field.string(fieldName, maxLength));
        }

        /** @throws IllegalArgumentException naming what is wrong */
        public EventSchema build() {
            return new EventSchema(name, version, keyField, eventTimeField, fields);
        }
    }
}
