package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.Field;
import io.streamgrid.jobs.schema.FieldType;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * A schema as properties, for the log's metadata file: readable with a text editor, and complete,
 * so that a log can be checked against the schema a reader or writer brings without anything else.
 */
final class SchemaProperties {
    private SchemaProperties() {
    }

    static void write(final EventSchema schema, final Properties out) {
        out.setProperty("schema.name", schema.name());
        out.setProperty("schema.version", Integer.toString(schema.version()));
        out.setProperty("schema.key", schema.keyField());
        out.setProperty("schema.event-time", schema.eventTimeField());
        out.setProperty("schema.fields", Integer.toString(schema.fields().size()));
        for (int i = 0; i < schema.fields().size(); i++) {
            final Field field = schema.fields().get(i);
            final String prefix = "field." + i + ".";
            out.setProperty(prefix + "name", field.name());
            out.setProperty(prefix + "type", field.type().yamlName());
            if (field.type() == FieldType.STRING) {
                out.setProperty(prefix + "max-length", Integer.toString(field.maxLength()));
            }
            for (int s = 0; s < field.symbols().size(); s++) {
                out.setProperty(prefix + "symbol." + s, field.symbols().get(s));
            }
            if (field.type() == FieldType.ENUM) {
                out.setProperty(prefix + "symbols", Integer.toString(field.symbols().size()));
            }
            if (field.defaultValue() != null) {
                out.setProperty(prefix + "default", field.defaultValue().toString());
            }
        }
    }

    /** @throws IllegalArgumentException naming the missing or bad property */
    static EventSchema read(final Properties in, final String where) {
        final int count = number(in, "schema.fields", where);
        final List<Field> fields = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            final String prefix = "field." + i + ".";
            final String name = text(in, prefix + "name", where);
            final FieldType type = FieldType.fromYaml(text(in, prefix + "type", where));
            final int maxLength = type == FieldType.STRING ? number(in, prefix + "max-length", where) : 0;
            final List<String> symbols = new ArrayList<>();
            if (type == FieldType.ENUM) {
                final int symbolCount = number(in, prefix + "symbols", where);
                for (int s = 0; s < symbolCount; s++) {
                    symbols.add(text(in, prefix + "symbol." + s, where));
                }
            }
            final String defaultText = in.getProperty(prefix + "default");
            fields.add(new Field(name, type, maxLength, symbols, defaultText == null ? null : parse(type, defaultText)));
        }
        return new EventSchema(text(in, "schema.name", where), number(in, "schema.version", where),
                text(in, "schema.key", where), text(in, "schema.event-time", where), fields);
    }

    private static Object parse(final FieldType type, final String text) {
        return switch (type) {
            case INT -> Integer.valueOf(text);
            case LONG, TIMESTAMP -> Long.valueOf(text);
            case DOUBLE -> Double.valueOf(text);
            case BOOLEAN -> Boolean.valueOf(text);
            case ENUM, STRING -> text;
        };
    }

    private static String text(final Properties in, final String key, final String where) {
        final String value = in.getProperty(key);
        if (value == null) {
            throw new IllegalArgumentException(where + " lacks '" + key + "'");
        }
        return value;
    }

    private static int number(final Properties in, final String key, final String where) {
        final String value = text(in, key, where);
        try {
            return Integer.parseInt(value);
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException(where + ": '" + key + "' is not a number: " + value, e);
        }
    }
}
