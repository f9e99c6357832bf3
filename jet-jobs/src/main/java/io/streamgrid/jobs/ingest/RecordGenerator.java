package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.SchemaRecord;

import java.time.Instant;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * What the generators share: the {@code n}-th event of a spec as a reused {@link SchemaRecord}
 * (no allocation per event; the consumer must copy or append it before returning), handed to a
 * consumer or appended to a schema log with progress lines.
 */
public abstract class RecordGenerator {
    /** How often a live run makes what it appended visible to readers (a flush, when there is something new). */
    static final long LIVE_FLUSH_MS = 100;
    /** How often a live run says how far it is. */
    static final long LIVE_PROGRESS_MS = 10_000;

    private final GeneratorSpec spec;
    private final long events;
    private final String what;

    /** {@code what}: the events' name in progress lines. */
    RecordGenerator(final GeneratorSpec spec, final String what) {
        this.spec = spec;
        this.events = spec.events();
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

    /**
     * Appends the events as {@code clockMs} reaches their arrival times ({@link GeneratorSpec#arrival}:
     * the spec's start is on that clock's scale), so readers see a stream that follows the clock:
     * events whose arrival has passed go at once (a backfill), later ones when due. What was appended
     * is flushed once per {@value #LIVE_FLUSH_MS} ms (so readers see an event within about that) and
     * before this returns. Stops after the
     * spec's events, or as soon as {@code stop} says so; returns how many were appended.
     *
     * @throws IllegalStateException when the log fails a flush ({@link EventLog#flush()})
     */
    public final long appendLive(final EventLog log, final LongSupplier clockMs, final BooleanSupplier stop,
                                 final Consumer<String> progress) {
        long appended = 0;
        long flushed = 0; // events appended when the log was last flushed
        long lastFlush = clockMs.getAsLong();
        long lastProgress = lastFlush;
        while (appended < events && !stop.getAsBoolean()) {
            final long now = clockMs.getAsLong();
            // At most one flush per interval, and only of something new: a flush per event (or per wait between two
            // events, a millisecond apart at 1,000/s) would cost a broker round trip each over Kafka.
            if (appended > flushed && now - lastFlush >= LIVE_FLUSH_MS) {
                log.flush();
                flushed = appended;
                lastFlush = now;
            }
            final long due = spec.arrival(appended);
            if (due > now) {
                sleep(Math.min(due - now, LIVE_FLUSH_MS));
                continue;
            }
            log.append(next(appended));
            appended++;
            if (now - lastProgress >= LIVE_PROGRESS_MS) {
                progress.accept("appended " + appended + " " + what + " events so far, event time now " + Instant.ofEpochMilli(due));
                lastProgress = now;
            }
        }
        log.flush();
        return appended;
    }

    private static void sleep(final long ms) {
        try {
            Thread.sleep(Math.max(1, ms));
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the next event's time", e);
        }
    }
}
