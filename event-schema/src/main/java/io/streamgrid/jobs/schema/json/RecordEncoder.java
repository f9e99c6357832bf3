package io.streamgrid.jobs.schema.json;

import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.Field;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Encodes an event given field by field (a parsed JSON object, a CSV line's cells) into a record
 * of one {@link EventSchema}, validating every value: the full way, which names what is wrong.
 *
 * <p>Values: int and long whole numbers; double any finite number; boolean true or false;
 * timestamp milliseconds since the epoch or an ISO-8601 instant ({@code 2026-01-01T09:30:00Z}); enum
 * one of the field's symbols; string at most the field's byte length in UTF-8; any of them also as
 * a string. A field left out takes its default; without one the event is refused. Not thread-safe:
 * it reuses one record.
 */
public final class RecordEncoder {
    private static final String SEQUENCE = "seq";
    private static final Pattern WHOLE = Pattern.compile("-?\\d{1,18}");

    private final EventSchema schema;
    private final SchemaLayout layout;
    private final UnsafeBuffer buffer;
    private final SchemaRecord record;
    private final boolean sequenceIsAField;
    /** Field name to its index in the layout, for {@link #encodePublished(Fields, long)}. */
    private final Map<String, Integer> fieldIndex = new HashMap<>();
    /** Per layout field, which of the given fields holds its value (-1: none); reused. */
    private final int[] chosen;
    /**
     * Per position of a given field, the name last seen there (by identity) and its layout index:
     * an application sets the same fields in the same order with the same string constants, so
     * most lookups are one reference comparison.
     */
    private String[] seenNames = new String[0];
    private int[] seenIndexes = new int[0];

    /** An event's fields as an application set them, in order, read without copying. */
    public interface Fields {
        int count();

        String name(int index);

        /** A {@link Long}, {@link Double}, {@link Boolean} or {@link String}, as {@link FlatJson} parses values. */
        Object value(int index);
    }

    public RecordEncoder(final EventSchema schema) {
        this.schema = schema;
        this.layout = schema.layout();
        this.buffer = new UnsafeBuffer(new byte[layout.length()]);
        this.record = new SchemaRecord(layout);
        this.sequenceIsAField = schema.fields().stream().anyMatch(f -> f.name().equals(SEQUENCE));
        for (int i = 0; i < layout.fieldCount(); i++) {
            fieldIndex.put(layout.field(i).name(), i);
        }
        this.chosen = new int[layout.fieldCount()];
    }

    /**
     * As {@link #encodePublished(Map, long)}, from fields as set (no map, no parsing), with the same
     * checks in the same order and the same reasons; a name given twice is refused as JSON text
     * naming a field twice is.
     *
     * @throws IllegalArgumentException naming the field
     */
    public SchemaRecord encodePublished(final Fields fields, final long sequence) {
        Arrays.fill(chosen, -1);
        String unknown = null;
        boolean numbered = false;
        final int count = fields.count();
        if (count > seenNames.length) {
            seenNames = Arrays.copyOf(seenNames, count);
            seenIndexes = Arrays.copyOf(seenIndexes, count);
        }
        for (int j = 0; j < count; j++) {
            final String name = fields.name(j);
            final int index;
            if (name == seenNames[j]) {
                index = seenIndexes[j];
            } else {
                index = fieldIndex.getOrDefault(name, -1);
                seenNames[j] = name;
                seenIndexes[j] = index;
            }
            if (index >= 0) {
                if (chosen[index] >= 0) {
                    throw new IllegalArgumentException("duplicate field '" + name + "'");
                }
                chosen[index] = j;
            } else if (name.equals(SEQUENCE)) {
                numbered = true;
            } else if (unknown == null) {
                unknown = name;
            }
        }
        if (numbered) {
            throw sequenceGiven();
        }
        record.wrapForWrite(buffer, 0);
        for (int i = 0; i < layout.fieldCount(); i++) {
            final Field field = layout.field(i);
            Object value = chosen[i] < 0 ? null : fields.value(chosen[i]);
            if (value == null) {
                if (field.defaultValue() == null) {
                    throw new IllegalArgumentException("missing field '" + field.name() + "'");
                }
                value = field.defaultValue();
            }
            set(i, field, value);
        }
        if (unknown != null) {
            throw unknownField(unknown);
        }
        record.sequence(sequence);
        buffer.putByte(0, SchemaLayout.KIND_PUBLISHED);
        return record;
    }

    /**
     * Encodes one published event, {@code values} by field name as {@link FlatJson} parses them,
     * into the record this loader reuses, its sequence {@code sequence} and its kind
     * {@link SchemaLayout#KIND_PUBLISHED}. Valid until the next call.
     *
     * @throws IllegalArgumentException naming the field: missing without a default, unknown, of the
     *                                  wrong type, out of range, too long; or a {@code seq} value
     *                                  (the publisher numbers its events)
     */
    public SchemaRecord encodePublished(final Map<String, Object> values, final long sequence) {
        if (!sequenceIsAField && values.containsKey(SEQUENCE)) {
            throw sequenceGiven();
        }
        encode(values, sequence);
        buffer.putByte(0, SchemaLayout.KIND_PUBLISHED);
        return record;
    }

    /**
     * Encodes one event, {@code values} by field name as {@link FlatJson} parses them (or as a
     * CSV line's cells, strings), into the record this encoder reuses, numbered {@code sequence}
     * unless the values carry {@code seq} (when the schema has no field of that name). Valid until
     * the next call.
     *
     * @throws IllegalArgumentException naming the field, as {@link #encodePublished}
     */
    public SchemaRecord encode(final Map<String, Object> values, final long lineNumber) {
        record.wrapForWrite(buffer, 0);
        int used = 0;
        for (int i = 0; i < layout.fieldCount(); i++) {
            final Field field = layout.field(i);
            Object value = values.get(field.name());
            if (value == null) {
                if (field.defaultValue() == null) {
                    throw new IllegalArgumentException("missing field '" + field.name() + "'");
                }
                value = field.defaultValue();
            } else {
                used++;
            }
            set(i, field, value);
        }
        long sequence = lineNumber;
        if (!sequenceIsAField && values.get(SEQUENCE) != null) {
            sequence = whole(SEQUENCE, values.get(SEQUENCE));
            used++;
        }
        record.sequence(sequence);
        if (used != values.size()) {
            for (final String name : values.keySet()) {
                if (!name.equals(SEQUENCE) && schema.fields().stream().noneMatch(f -> f.name().equals(name))) {
                    throw unknownField(name);
                }
            }
        }
        return record;
    }

    private IllegalArgumentException sequenceGiven() {
        return new IllegalArgumentException("'seq' is not a field of schema " + schema.name()
                + ": a published event is numbered by its publisher; leave it out");
    }

    private IllegalArgumentException unknownField(final String name) {
        return new IllegalArgumentException("unknown field '" + name + "' (schema " + schema.name() + " has "
                + schema.fields().stream().map(Field::name).toList() + ")");
    }

    private void set(final int index, final Field field, final Object value) {
        final String name = field.name();
        switch (field.type()) {
            case INT -> {
                final long whole = whole(name, value);
                if (whole < Integer.MIN_VALUE || whole > Integer.MAX_VALUE) {
                    throw new IllegalArgumentException("'" + name + "' is " + whole + ", outside the int range");
                }
                record.setInt(index, (int) whole);
            }
            case LONG -> record.setLong(index, whole(name, value));
            case DOUBLE -> record.setDouble(index, decimal(name, value));
            case BOOLEAN -> record.setBoolean(index, bool(name, value));
            case TIMESTAMP -> record.setTimestamp(index, timestamp(name, value));
            case ENUM -> record.setEnum(index, text(name, value));
            case STRING -> record.setString(index, text(name, value));
            default -> throw new IllegalStateException("bug: no loader for " + field.type());
        }
    }

    private static long whole(final String name, final Object value) {
        if (value instanceof Long l) {
            return l;
        }
        if (value instanceof Integer i) { // an int field's default
            return i;
        }
        if (value instanceof String s) {
            try {
                return Long.parseLong(s.trim());
            } catch (final NumberFormatException e) {
                // reported below
            }
        }
        throw new IllegalArgumentException("'" + name + "' must be a whole number, found " + value);
    }

    private static double decimal(final String name, final Object value) {
        double number = Double.NaN;
        if (value instanceof Number n) {
            number = n.doubleValue();
        } else if (value instanceof String s) {
            try {
                number = Double.parseDouble(s.trim());
            } catch (final NumberFormatException e) {
                // reported below
            }
        }
        if (!Double.isFinite(number)) {
            throw new IllegalArgumentException("'" + name + "' must be a finite number, found " + value);
        }
        return number;
    }

    private static boolean bool(final String name, final Object value) {
        if (value instanceof Boolean b) {
            return b;
        }
        if ("true".equals(value) || "false".equals(value)) {
            return Boolean.parseBoolean((String) value);
        }
        throw new IllegalArgumentException("'" + name + "' must be true or false, found " + value);
    }

    private static long timestamp(final String name, final Object value) {
        final long millis;
        if (value instanceof Long l) {
            millis = l;
        } else if (value instanceof String s && WHOLE.matcher(s.trim()).matches()) {
            millis = Long.parseLong(s.trim());
        } else if (value instanceof String s) {
            try {
                millis = Instant.parse(s.trim()).toEpochMilli();
            } catch (final DateTimeParseException e) {
                throw new IllegalArgumentException("'" + name + "' must be epoch milliseconds or an ISO-8601 instant, found " + s);
            }
        } else {
            throw new IllegalArgumentException("'" + name + "' must be epoch milliseconds or an ISO-8601 instant, found " + value);
        }
        if (millis < 0) {
            throw new IllegalArgumentException("'" + name + "' is negative: " + millis);
        }
        return millis;
    }

    private static String text(final String name, final Object value) {
        if (!(value instanceof String s)) {
            throw new IllegalArgumentException("'" + name + "' must be a string, found " + value);
        }
        return s;
    }
}
