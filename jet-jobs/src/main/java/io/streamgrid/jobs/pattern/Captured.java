package io.streamgrid.jobs.pattern;

import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A copy of one event a pattern job holds on to: while it waits for the watermark, and while a
 * partial match keeps it. Immutable bytes; the record view is built once, on first use.
 */
final class Captured {
    final int schema;
    final long time;
    /** Order of arrival among the key's events: breaks ties of time and schema. */
    final long arrival;
    final byte[] bytes;
    private SchemaRecord view;

    Captured(final int schema, final long time, final long arrival, final byte[] bytes) {
        this.schema = schema;
        this.time = time;
        this.arrival = arrival;
        this.bytes = bytes;
    }

    static Captured of(final SchemaRecord event, final int schema, final long arrival) {
        final byte[] bytes = new byte[event.length()];
        event.buffer().getBytes(event.offset(), bytes);
        return new Captured(schema, event.eventTime(), arrival, bytes);
    }

    SchemaRecord view(final SchemaLayout layout) {
        if (view == null) {
            view = new SchemaRecord(layout).wrap(new UnsafeBuffer(bytes), 0, bytes.length);
        }
        return view;
    }

    /** Matching order: event time, then the schema's place in the job, then arrival. */
    boolean before(final Captured other) {
        if (time != other.time) {
            return time < other.time;
        }
        if (schema != other.schema) {
            return schema < other.schema;
        }
        return arrival < other.arrival;
    }
}
