package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.ingest.LogSource;
import io.streamgrid.jobs.pipeline.Replay;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;

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
    /** A writer tells its logs its clock at most this often (and at once when it ends). */
    static final long CLOCK_INTERVAL_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

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
        emitted++;
        event.sequence(Emitted.sequence(partition, emitted));
        buffers[i].putByte(0, SchemaLayout.KIND_EMITTED);
        logs[i].append(event);
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
