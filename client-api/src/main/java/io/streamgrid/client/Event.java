package io.streamgrid.client;

import java.time.Instant;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;

/**
 * One event to publish: field name to value — set field by field (the builder, {@link #of}) or
 * given as a flat JSON object ({@link #json}), the form a service in any language writes.
 * Immutable and thread-safe.
 *
 * <p>Values: whole numbers (int, long and timestamp fields: milliseconds since the epoch), decimal
 * numbers, booleans, strings (string and enum fields; a timestamp may also be an ISO-8601 instant),
 * {@link Instant}. A field left out takes the schema's default; an event is rejected when it names
 * an unknown field or one field twice, gives a value of the wrong type or range, a string longer
 * than the field's width, or leaves out a field without a default (the event time among them) —
 * the reason names the field, and nothing of the event is appended.
 */
public final class Event {
    private static final String[] NO_NAMES = new String[0];
    private static final Object[] NO_VALUES = new Object[0];

    /** The fields as set, in order; empty for an event given as JSON text. */
    private final String[] names;
    private final Object[] values;
    private final boolean jsonText;
    /** The JSON text: given, or written on first use (benign race: every thread writes the same). */
    private String json;

    private Event(final String[] names, final Object[] values, final String json) {
        this.names = names;
        this.values = values;
        this.jsonText = json != null;
        this.json = json;
    }

    public static Builder builder() {
        return new Builder();
    }

    /**
     * The event with these fields; values as {@link Builder#set(String, Object)} takes them.
     *
     * @throws IllegalArgumentException naming the field when a value is of a type no field takes
     */
    public static Event of(final Map<String, ?> fields) {
        final Builder builder = builder();
        fields.forEach(builder::set);
        return builder.build();
    }

    /**
     * The event written as one flat JSON object, e.g. {@code {"ts":1767225600000,"ip":"10.0.0.1"}}:
     * sent as it is; it is parsed and validated when published.
     */
    public static Event json(final String flatJsonObject) {
        Objects.requireNonNull(flatJsonObject, "flatJsonObject");
        return new Event(NO_NAMES, NO_VALUES, flatJsonObject);
    }

    /** The event as a flat JSON object. */
    public String toJson() {
        String text = json;
        if (text == null) {
            text = writeJson();
            json = text;
        }
        return text;
    }

    /** Whether the event was given as JSON text ({@link #json}): its fields are then known only by parsing it. */
    public boolean isJsonText() {
        return jsonText;
    }

    /** How many fields were set, in order; 0 for JSON text. */
    public int fieldCount() {
        return names.length;
    }

    /** The name of the {@code index}-th field set. */
    public String fieldName(final int index) {
        return names[index];
    }

    /** The value of the {@code index}-th field set: a {@link Long} (whole numbers, instants in epoch milliseconds), {@link Double}, {@link Boolean} or {@link String}. */
    public Object fieldValue(final int index) {
        return values[index];
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof Event event && event.toJson().equals(toJson());
    }

    @Override
    public int hashCode() {
        return toJson().hashCode();
    }

    @Override
    public String toString() {
        return toJson();
    }

    private String writeJson() {
        final StringBuilder text = new StringBuilder("{");
        for (int i = 0; i < names.length; i++) {
            if (i > 0) {
                text.append(',');
            }
            quote(names[i], text);
            text.append(':');
            final Object value = values[i];
            if (value instanceof String string) {
                quote(string, text);
            } else {
                text.append(value); // Long, Double (finite), Boolean: Java's forms are JSON's
            }
        }
        return text.append('}').toString();
    }

    private static void quote(final String text, final StringBuilder into) {
        into.append('"');
        for (int i = 0; i < text.length(); i++) {
            final char c = text.charAt(i);
            switch (c) {
                case '"' -> into.append("\\\"");
                case '\\' -> into.append("\\\\");
                case '\n' -> into.append("\\n");
                case '\r' -> into.append("\\r");
                case '\t' -> into.append("\\t");
                default -> {
                    if (c < 0x20) {
                        into.append(String.format("\\u%04x", (int) c));
                    } else {
                        into.append(c);
                    }
                }
            }
        }
        into.append('"');
    }

    /** Builds an {@link Event} field by field; not thread-safe. */
    public static final class Builder {
        private String[] names = new String[8];
        private Object[] values = new Object[8];
        private int count;

        private Builder() {
        }

        public Builder set(final String field, final long value) {
            return add(field, value);
        }

        public Builder set(final String field, final double value) {
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("field '" + field + "' must be a finite number, was " + value);
            }
            return add(field, value);
        }

        public Builder set(final String field, final boolean value) {
            return add(field, value);
        }

        public Builder set(final String field, final String value) {
            Objects.requireNonNull(value, () -> "field '" + field + "' is null: leave it out for its default");
            return add(field, value);
        }

        public Builder set(final String field, final Instant value) {
            return set(field, value.toEpochMilli());
        }

        /**
         * Sets {@code field} from a value of any type {@link Event} takes (a {@link Number},
         * {@link Boolean}, {@link CharSequence}, {@link Instant} or an enum, as its name); null
         * leaves the field out.
         *
         * @throws IllegalArgumentException naming the field for a value of another type
         */
        public Builder set(final String field, final Object value) {
            if (value == null) {
                return this;
            }
            if (value instanceof Double || value instanceof Float) {
                return set(field, ((Number) value).doubleValue());
            }
            if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte) {
                return set(field, ((Number) value).longValue());
            }
            if (value instanceof Boolean b) {
                return set(field, b.booleanValue());
            }
            if (value instanceof CharSequence text) {
                return set(field, text.toString());
            }
            if (value instanceof Instant instant) {
                return set(field, instant);
            }
            if (value instanceof Enum<?> symbol) {
                return set(field, symbol.name());
            }
            throw new IllegalArgumentException("field '" + field + "': a " + value.getClass().getName()
                    + " is not an event value (numbers, booleans, strings, Instant, enums)");
        }

        public Event build() {
            return new Event(Arrays.copyOf(names, count), Arrays.copyOf(values, count), null);
        }

        private Builder add(final String field, final Object value) {
            if (field == null || field.isEmpty()) {
                throw new IllegalArgumentException("a field name is empty");
            }
            if (count == names.length) {
                names = Arrays.copyOf(names, count * 2);
                values = Arrays.copyOf(values, count * 2);
            }
            names[count] = field;
            values[count] = value;
            count++;
            return this;
        }
    }
}
