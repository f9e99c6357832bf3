package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.SchemaRecord;

import java.util.function.Consumer;

/**
 * What the generators share: the {@code n}-th event of a spec as a reused {@link SchemaRecord}
 * (no allocation per event; the consumer must copy or append it before returning), handed to a
 * consumer or appended to a schema log with progress lines.
 */
public abstract class RecordGenerator {
    private final long events;
    private final String what;

    /** {@code what}: the events' name in progress lines. */
    RecordGenerator(final long events, final String what) {
        this.events = events;
        this.what = what;
    }

    /** The {@code n}-th event (called with 0, 1, 2, ... in order). */
    abstract SchemaRecord next(long n);

    /** Emits every event to {@code consumer}; returns the count. */
    public final long generate(final Consumer<SchemaRecord> consumer) {
        for (long i = 0; i < events; i++) {
            consumer.accept(next(i));
        }
        return events;
    }

    /** Appends every event to {@code log}, reporting progress every {@code progressEvery} events (0: never). */
    public final long appendTo(final EventLog log, final long progressEvery, final Consumer<String> progress) {
        final Progress meter = new Progress();
        for (long i = 0; i < events; i++) {
            log.append(next(i));
            if (progressEvery > 0 && (i + 1) % progressEvery == 0) {
                progress.accept("generated " + (i + 1) + " of " + events + " " + what + " events (" + meter.of(i + 1, i + 1, events) + ")");
            }
        }
        return events;
    }
}
