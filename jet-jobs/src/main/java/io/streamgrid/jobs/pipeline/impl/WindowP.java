package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.ingest.LogSource;
import io.streamgrid.jobs.pipeline.Replay;
import io.streamgrid.jobs.pipeline.StateWriter;
import io.streamgrid.jobs.pipeline.WindowedJob;


/** A windowed job's processor: its schema log's partitions through {@link PartitionRun}s; the logs it emits into. */
final class WindowP<A> extends PartitionTasksP<PartitionRun<A>> {
    private final WindowedJob<A> job;
    private final LogSource source;
    private final Replay replay;
    private EventLog log;
    private EventLog[] emitLogs = new EventLog[0];

    /** {@code replay}: null for the live job. */
    WindowP(final WindowedJob<A> job, final LogSource source, final Replay replay) {
        super(job.name(), job.policy().allowedDisorderMs(), job.policy().idleTimeoutMs(), replay);
        this.job = job;
        this.source = source;
        this.replay = replay;
    }

    @Override
    int openLog(final Context context) {
        log = source.open(job.schema(), job.schema().name());
        emitLogs = new EventLog[job.emits().size()];
        for (int i = 0; i < emitLogs.length; i++) {
            emitLogs[i] = EmittedEvents.openLog(source, job.emits().get(i), log.partitions(), job.name(), replay);
        }
        return log.partitions();
    }

    @Override
    PartitionRun<A> newTask(final int partition, final StateWriter out) {
        return new PartitionRun<>(job, partition, log, out, emitLogs);
    }

    @Override
    void flushOutputs() {
        for (final EventLog emitted : emitLogs) {
            emitted.flush();
        }
    }

    @Override
    void closeLog() {
        if (log != null) {
            log.close();
        }
        for (final EventLog emitted : emitLogs) {
            if (emitted != null) {
                emitted.close();
            }
        }
    }

    @Override
    String source() {
        return "log " + (log == null ? job.schema().name() : log.name()) + " of " + source.describe();
    }
}
