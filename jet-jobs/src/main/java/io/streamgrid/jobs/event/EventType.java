package io.streamgrid.jobs.event;

import io.streamgrid.jobs.schema.EventSchema;

/**
 * The built-in event types. Each is a schema like any user's ({@link #schema()}), kept in its own
 * schema log under the ingest directory ({@code schemas/request}, ...); the built-in jobs read them
 * through the same public API as users' jobs. Field names are those of the JSON-lines format
 * ({@link io.streamgrid.jobs.ingest.JsonLinesLoader}); {@code ts} is the event time.
 */
public enum EventType {
    /** A network request: key {@code ip} = the source IPv4 address as an unsigned number; destination, bytes, HTTP status. */
    REQUEST(EventSchema.builder("request").longKey("ip").eventTime("ts")
            .int64("destination").int32("bytes").int32("status").build()),
    /** A sensor reading: key {@code machine}; the sensor's kind ({@link SensorKind}) and its value. */
    SENSOR(EventSchema.builder("sensor").longKey("machine").eventTime("ts")
            .enumOf("kind", SensorKind.symbols()).float64("value").build()),
    /** A click: key {@code user}; the item, its category and the action ({@link ClickAction}). */
    CLICK(EventSchema.builder("click").longKey("user").eventTime("ts")
            .int64("item").int32("category").enumOf("action", ClickAction.symbols()).build()),
    /** A payment: key {@code user}; the amount in cents. */
    TRANSACTION(EventSchema.builder("transaction").longKey("user").eventTime("ts").int64("amount_cents").build());

    private final EventSchema schema;

    EventType(final EventSchema schema) {
        this.schema = schema;
    }

    public EventSchema schema() {
        return schema;
    }

    /** The built-in type whose schema is called {@code schemaName}, or null. */
    public static EventType ofSchema(final String schemaName) {
        for (final EventType type : values()) {
            if (type.schema.name().equals(schemaName)) {
                return type;
            }
        }
        return null;
    }
}
