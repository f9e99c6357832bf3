package io.streamgrid.client;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;

/**
 * One event to publish: field name to value, held as a flat JSON object — the form the members
 * validate against the schema and the form a service in any language writes. Immutable.
 *
 * <p>Values: whole numbers (int, long and timestamp fields: milliseconds since the epoch), decimal
 * numbers, booleans, strings (string and enum fields; a timestamp may also be an ISO-8601 instant),
 * {@link Instant}. A field left out takes the schema's default; the members reject an event that
 * names an unknown field, gives a value of the wrong type or range, a string longer than the
 * field's width, or leaves out a field without a default (the event time among them) — the
 * reason names the field, and nothing of the event is appended.
 */
public final class Event {
    private final String json;

    private Event(final String json) {
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
     * sent as it is; the members parse and validate it.
     */
    public static Event json(final String flatJsonObject) {
        Objects.requireNonNull(flatJsonObject, "flatJsonObject");
        return new Event(flatJsonObject);
    }

    /** The event as a flat JSON object. */
    public String toJson() {
        return json;
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof Event event && event.json.equals(json);
    }

    @Override
    public int hashCode() {
        return json.hashCode();
    }

    @Override
    public String toString() {
        return json;
    }

    /** Builds an {@link Event} field by field; not thread-safe. */
    public static final class Builder {
        private final StringBuilder json = new StringBuilder("{");

        private Builder() {
        }

        public Builder set(final String field, final long value) {
            return name(field).append(value, json);
        }

        public Builder set(final String field, final double value) {
            if (!Double.isFinite(value)) {
                throw new IllegalArgumentException("field '" + field + "' must be a finite number, was " + value);
            }
            name(field);
            json.append(value);
            return this;
        }

        public Builder set(final String field, final boolean value) {
            name(field);
            json.append(value);
            return this;
        }

        public Builder set(final String field, final String value) {
            Objects.requireNonNull(value, () -> "field '" + field + "' is null: leave it out for its default");
            name(field);
            quote(value);
            return this;
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
            return new Event(json + "}");
        }

        private Builder append(final long value, final StringBuilder into) {
            into.append(value);
            return this;
        }

        private Builder name(final String field) {
            if (field == null || field.isEmpty()) {
                throw new IllegalArgumentException("a field name is empty");
            }
            if (json.length() > 1) {
                json.append(',');
            }
            quote(field);
            json.append(':');
            return this;
        }

        private void quote(final String text) {
            json.append('"');
            for (int i = 0; i < text.length(); i++) {
                final char c = text.charAt(i);
                switch (c) {
                    case '"' -> json.append("\\\"");
                    case '\\' -> json.append("\\\\");
                    case '\n' -> json.append("\\n");
                    case '\r' -> json.append("\\r");
                    case '\t' -> json.append("\\t");
                    default -> {
                        if (c < 0x20) {
                            json.append(String.format("\\u%04x", (int) c));
                        } else {
                            json.append(c);
                        }
                    }
                }
            }
            json.append('"');
        }
    }
}
