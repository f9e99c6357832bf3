package io.streamgrid.jobs.pattern;

import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * A copy of one event a partial match took (the runtime's record is only valid during the call).
 * Immutable bytes; the record view is built once, on first use.
 */
final class Captured {
    final int schema;
    final long time;
    final byte[] bytes;
    private SchemaRecord view;

    Captured(final int schema, final long time, final byte[] bytes) {
        this.schema = schema;
        this.time = time;
        this.bytes = bytes;
    }

    static Captured of(final SchemaRecord event, final int schema) {
        final byte[] bytes = new byte[event.length()];
        event.buffer().getBytes(event.offset(), bytes);
        return new Captured(schema, event.eventTime(), bytes);
    }

    SchemaRecord view(final SchemaLayout layout) {
        if (view == null) {
            view = new SchemaRecord(layout).wrap(new UnsafeBuffer(bytes), 0, bytes.length);
        }
        return view;
    }
}
