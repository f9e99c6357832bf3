package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.Replay;
import io.streamgrid.jobs.pipeline.StateWriter;
import io.streamgrid.jobs.pipeline.WindowedJob;

import java.nio.file.Path;

/** A windowed job's processor: its schema log's partitions through {@link PartitionRun}s. */
final class WindowP<A> extends PartitionTasksP<PartitionRun<A>> {
    private final WindowedJob<A> job;
    private final String logDir;
    private SchemaLog log;

    /** {@code replay}: null for the live job. */
    WindowP(final WindowedJob<A> job, final String logDir, final Replay replay) {
        super(job.name(), job.policy().allowedDisorderMs(), job.policy().idleTimeoutMs(), replay);
        this.job = job;
        this.logDir = logDir;
    }

    @Override
    int openLog(final Context context) {
        log = SchemaLog.openExisting(Path.of(logDir), job.schema());
        return log.partitions();
    }

    @Override
    PartitionRun<A> newTask(final int partition, final StateWriter out) {
        return new PartitionRun<>(job, partition, log, out);
    }

    @Override
    void closeLog() {
        if (log != null) {
            log.close();
        }
    }

    @Override
    String source() {
        return logDir;
    }
}
