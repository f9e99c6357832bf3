package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.ingest.LogSource;
import io.streamgrid.jobs.pipeline.Replay;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * What a job's partition emits ({@code KeyedContext.newEvent}/{@code emit}, {@code StateWriter.emit}): per emitted schema its
 * log, one reusable record and buffer handed out by {@link #newEvent}, and the count of events this
 * partition emitted, which numbers their sequences (so a replay after a restore emits the same
 * sequences, and readers drop the repeats). It also tells the logs how far the partition's event
 * time has come ({@link #announceClock}), so that their readers' watermarks follow the writers'.
 */
final class EmittedEvents {
    /**
     * A writer tells its logs its clock at most this often (and at once when it ends). A reader's
     * windows and timers on the log wait for the clock, so this bounds what a second stage adds to
     * a result's latency: 100 ms put NEXMark Q11's p99 at 100 ms (decision record 0014, amended).
     */
    static final long CLOCK_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

    private final String jobName;
    /** The emitting job's partitions: every one is a writer of each emitted log. */
    private final int writers;
    private final List<EventSchema> schemas;
    private final EventLog[] logs;
    private final SchemaRecord[] records;
    private final UnsafeBuffer[] buffers;
    /** Events this partition emitted, in every emitted log together: the count in their sequences. */
    private long emitted;
    /** The clock this partition last announced, and when (System.nanoTime()). */
    private long announced = Long.MIN_VALUE;
    private long announcedAtNanos;
    /** Events {@link #hold} took: their bytes, and per event its schema, offset and length there. */
    private final ExpandableArrayBuffer held = new ExpandableArrayBuffer(1024);
    private int heldBytes;
    private int heldCount;
    private int[] heldSchema = new int[16];
    private int[] heldOffset = new int[16];
    private int[] heldLength = new int[16];

    /**
     * @param logs    one per {@code schemas}, in order
     * @param writers the emitting job's partitions
     */
    EmittedEvents(final String jobName, final List<EventSchema> schemas, final EventLog[] logs, final int writers) {
        this.jobName = jobName;
        this.writers = writers;
        this.schemas = schemas;
        this.logs = logs;
        this.records = new SchemaRecord[logs.length];
        this.buffers = new UnsafeBuffer[logs.length];
        for (int i = 0; i < logs.length; i++) {
            records[i] = new SchemaRecord(schemas.get(i).layout());
            buffers[i] = new UnsafeBuffer(new byte[schemas.get(i).layout().length()]);
        }
    }

    /**
     * The log an emitted schema's events go to: named after the schema (a replay's:
     * {@code <schema>.<suffix>}, so it never feeds the live job's readers), created with
     * {@code partitions} partitions when absent; job {@code jobName} recorded as the one that emits into it.
     *
     * @param replay null for the live job
     */
    static EventLog openLog(final LogSource source, final EventSchema schema, final int partitions, final String jobName,
                            final Replay replay) {
        final String name = replay == null ? schema.name() : schema.name() + "." + replay.into();
        final EventLog log = source.openOrCreate(schema, name, partitions);
        try {
            log.claimEmitter(replay == null ? jobName : replay.jobName(jobName));
        } catch (final RuntimeException e) {
            log.close();
            throw e;
        }
        return log;
    }

    /** The record to fill for an event of {@code schema}; one per schema, reused. */
    SchemaRecord newEvent(final EventSchema schema) {
        for (int i = 0; i < records.length; i++) {
            if (schemas.get(i).name().equals(schema.name())) {
                return records[i].wrapForWrite(buffers[i], 0);
            }
        }
        throw new IllegalArgumentException("job " + jobName + " does not emit schema " + schema.name() + "; it emits "
                + schemas.stream().map(EventSchema::name).toList() + " (KeyedJob.Builder.emits, WindowedJobBuilder.emits)");
    }

    /** Appends {@code event} (a record {@link #newEvent} handed out) to its log, numbered as the partition's next. */
    void emit(final SchemaRecord event, final int partition) {
        append(schemaOf(event), partition);
    }

    /**
     * As {@link #emit}, but the event waits for {@link #releaseHeld}, which numbers and appends the
     * events held in an order of their contents. For a caller whose order of events is not given by
     * its input: a window engine hands the windows a watermark closes over in the order of its hash
     * sets, which a restore rebuilds otherwise — a restored writer would number its repeats
     * differently, and readers, which keep the first event of each number, would take some twice
     * and lose others. {@code event} may be reused at once.
     */
    void hold(final SchemaRecord event) {
        final int schema = schemaOf(event);
        if (heldCount == heldSchema.length) {
            heldSchema = Arrays.copyOf(heldSchema, heldCount * 2);
            heldOffset = Arrays.copyOf(heldOffset, heldCount * 2);
            heldLength = Arrays.copyOf(heldLength, heldCount * 2);
        }
        held.putBytes(heldBytes, event.buffer(), event.offset(), event.length());
        heldSchema[heldCount] = schema;
        heldOffset[heldCount] = heldBytes;
        heldLength[heldCount] = event.length();
        heldCount++;
        heldBytes += event.length();
    }

    /** Numbers and appends the events {@link #hold} took, in {@link #compareHeld}'s order. */
    void releaseHeld(final int partition) {
        if (heldCount == 0) {
            return;
        }
        final Integer[] order = new Integer[heldCount];
        for (int e = 0; e < heldCount; e++) {
            order[e] = e;
        }
        Arrays.sort(order, this::compareHeld);
        for (final int e : order) {
            final int schema = heldSchema[e];
            records[schema].wrapForWrite(buffers[schema], 0);
            buffers[schema].putBytes(0, held, heldOffset[e], heldLength[e]);
            append(schema, partition);
        }
        heldCount = 0;
        heldBytes = 0;
    }

    /** Schema, then key (its bytes), then event time, then the fields' bytes: one key's events in time order. */
    private int compareHeld(final int a, final int b) {
        if (heldSchema[a] != heldSchema[b]) {
            return Integer.compare(heldSchema[a], heldSchema[b]);
        }
        final SchemaLayout layout = schemas.get(heldSchema[a]).layout();
        final int key = layout.offset(layout.keyIndex());
        final int byKey = compareBytes(a, b, key, layout.end(layout.keyIndex()));
        if (byKey != 0) {
            return byKey;
        }
        final int time = layout.offset(layout.eventTimeIndex());
        final int byTime = Long.compare(held.getLong(heldOffset[a] + time, ByteOrder.LITTLE_ENDIAN),
                held.getLong(heldOffset[b] + time, ByteOrder.LITTLE_ENDIAN));
        if (byTime != 0) {
            return byTime;
        }
        // The header's kind and sequence are not the event's yet: the fields only.
        final int byFields = compareBytes(a, b, SchemaLayout.HEADER, Math.min(heldLength[a], heldLength[b]));
        return byFields != 0 ? byFields : Integer.compare(heldLength[a], heldLength[b]);
    }

    /** Held events {@code a} and {@code b} compared by their bytes {@code from} (inclusive) to {@code to} (exclusive), unsigned. */
    private int compareBytes(final int a, final int b, final int from, final int to) {
        for (int i = from; i < to; i++) {
            final int byA = held.getByte(heldOffset[a] + i) & 0xFF;
            final int byB = held.getByte(heldOffset[b] + i) & 0xFF;
            if (byA != byB) {
                return Integer.compare(byA, byB);
            }
        }
        return 0;
    }

    /** Which of the emitted schemas {@code event} is of: it must be a record {@link #newEvent} handed out, valid. */
    private int schemaOf(final SchemaRecord event) {
        int i = 0;
        while (i < records.length && records[i] != event) {
            i++;
        }
        if (i == records.length) {
            throw new IllegalArgumentException("job " + jobName + " emits only events made by newEvent(schema)");
        }
        final String invalid = event.validate();
        if (invalid != null) {
            throw new IllegalArgumentException("job " + jobName + " emitted an invalid " + schemas.get(i).name() + " event: " + invalid);
        }
        return i;
    }

    /** Numbers the record of schema {@code i} (in its buffer) as the partition's next and appends it. */
    private void append(final int i, final int partition) {
        emitted++;
        records[i].sequence(Emitted.sequence(partition, emitted));
        buffers[i].putByte(0, SchemaLayout.KIND_EMITTED);
        logs[i].append(records[i]);
    }

    /**
     * Tells every emitted log that writer {@code partition} will emit no event earlier than
     * {@code watermark} (its watermark, after every timer it reached fired), when it moved since the
     * last announcement and {@link #CLOCK_INTERVAL_NANOS} have passed — or at once when it ended
     * ({@code Long.MAX_VALUE}). Records go to every partition of each log, so a round costs
     * writers × partitions small records per emitted log.
     */
    void announceClock(final int partition, final long watermark, final long nowNanos) {
        if (logs.length == 0 || watermark <= announced) {
            return;
        }
        if (watermark != Long.MAX_VALUE && announced != Long.MIN_VALUE && nowNanos - announcedAtNanos < CLOCK_INTERVAL_NANOS) {
            return;
        }
        for (final EventLog log : logs) {
            log.appendWriterClock(partition, writers, watermark);
        }
        announced = watermark;
        announcedAtNanos = nowNanos;
    }

    /** How many this partition emitted: in its snapshot. */
    long count() {
        return emitted;
    }

    /** After a restore: the count the snapshot held. */
    void restoreCount(final long count) {
        emitted = count;
    }
}
