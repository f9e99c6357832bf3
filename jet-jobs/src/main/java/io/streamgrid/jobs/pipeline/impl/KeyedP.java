package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.pipeline.StateWriter;

import java.nio.file.Path;

/** A keyed job's processor: its schema log's partitions through {@link KeyedRun}s. */
final class KeyedP<S> extends PartitionTasksP<KeyedRun<S>> {
    private final KeyedJob<S> job;
    private final String logDir;
    private SchemaLog log;
    private DimensionReplica[] replicas = new DimensionReplica[0];

    KeyedP(final KeyedJob<S> job, final String logDir) {
        super(job.name(), job.policy().allowedDisorderMs(), job.policy().idleTimeoutMs());
        this.job = job;
        this.logDir = logDir;
    }

    @Override
    int openLog(final Context context) {
        log = SchemaLog.openExisting(Path.of(logDir), job.schema());
        replicas = new DimensionReplica[job.lookups().size()];
        for (int i = 0; i < replicas.length; i++) {
            replicas[i] = DimensionReplica.acquire(context.hazelcastInstance(), job.lookups().get(i).map());
        }
        return log.partitions();
    }

    @Override
    KeyedRun<S> newTask(final int partition, final StateWriter out) {
        return new KeyedRun<>(job, partition, log, out, replicas);
    }

    @Override
    void closeLog() {
        for (final DimensionReplica replica : replicas) {
            if (replica != null) {
                replica.release();
            }
        }
        if (log != null) {
            log.close();
        }
    }

    @Override
    String source() {
        return logDir;
    }
}
