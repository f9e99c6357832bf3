package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.pipeline.Replay;
import io.streamgrid.jobs.pipeline.StateWriter;
import io.streamgrid.jobs.schema.EventSchema;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * A keyed job's processor: the partitions of its schema logs through {@link KeyedRun}s. The log of
 * the job's first schema is {@code logDir}; the logs of its other schemas are that directory's
 * siblings ({@link SchemaLog#directoryOf} puts every schema's log under the same parent).
 */
final class KeyedP<S> extends PartitionTasksP<KeyedRun<S>> {
    private final KeyedJob<S> job;
    private final String logDir;
    private SchemaLog[] logs = new SchemaLog[0];
    private DimensionReplica[] replicas = new DimensionReplica[0];
    private SchemaLog[] emitLogs = new SchemaLog[0];
    private final Replay replay;

    /** {@code replay}: null for the live job. */
    KeyedP(final KeyedJob<S> job, final String logDir, final Replay replay) {
        super(job.name(), job.policy().allowedDisorderMs(), job.policy().idleTimeoutMs(), replay);
        this.job = job;
        this.logDir = logDir;
        this.replay = replay;
    }

    @Override
    int openLog(final Context context) {
        final Path first = Path.of(logDir);
        logs = new SchemaLog[job.schemas().size()];
        for (int i = 0; i < logs.length; i++) {
            final Path dir = i == 0 ? first : first.resolveSibling(job.schemas().get(i).name());
            logs[i] = SchemaLog.openExisting(dir, job.schemas().get(i));
            if (logs[i].partitions() != logs[0].partitions()) {
                throw new IllegalStateException("job " + job.name() + " reads schemas " + job.schemas().get(0).name() + " and "
                        + job.schemas().get(i).name() + " co-partitioned by key, but their logs have " + logs[0].partitions()
                        + " and " + logs[i].partitions() + " partitions: load both with the same ingest.partitions");
            }
        }
        final List<String> dimensionMaps = job.dimensionMaps();
        replicas = new DimensionReplica[dimensionMaps.size()];
        for (int i = 0; i < replicas.length; i++) {
            replicas[i] = DimensionReplica.acquire(context.hazelcastInstance(), dimensionMaps.get(i));
        }
        emitLogs = new SchemaLog[job.emits().size()];
        for (int i = 0; i < emitLogs.length; i++) {
            emitLogs[i] = openEmitted(first, job.emits().get(i), logs[0].partitions());
        }
        return logs[0].partitions();
    }

    /**
     * The log an emitted schema's events go to: beside the job's logs, named after the schema (a
     * replay's: {@code <schema>.<suffix>}, so it never feeds the live job's readers), created with
     * {@code partitions} partitions when absent; this job recorded as the one that emits into it.
     */
    private SchemaLog openEmitted(final Path firstLog, final EventSchema schema, final int partitions) {
        final String name = replay == null ? schema.name() : schema.name() + "." + replay.into();
        final Path dir = firstLog.resolveSibling(name);
        final SchemaLog log = SchemaLog.exists(dir) ? SchemaLog.openExisting(dir, schema) : SchemaLog.open(dir, schema, partitions);
        try {
            log.claimEmitter(replay == null ? job.name() : replay.jobName(job.name()));
        } catch (final RuntimeException e) {
            log.close();
            throw e;
        }
        return log;
    }

    /** Records wait until every dimension replica is loaded (it loads on a thread of its own). */
    @Override
    boolean ready() {
        for (final DimensionReplica replica : replicas) {
            if (!replica.isLoaded()) {
                return false;
            }
        }
        return true;
    }

    @Override
    KeyedRun<S> newTask(final int partition, final StateWriter out) {
        return new KeyedRun<>(job, partition, logs, out, replicas, emitLogs);
    }

    @Override
    void closeLog() {
        for (final DimensionReplica replica : replicas) {
            if (replica != null) {
                replica.release();
            }
        }
        for (final SchemaLog log : logs) {
            if (log != null) {
                log.close();
            }
        }
        for (final SchemaLog log : emitLogs) {
            if (log != null) {
                log.close();
            }
        }
    }

    @Override
    String source() {
        return logs.length <= 1 ? logDir : logDir + " and its siblings " + Arrays.stream(logs).skip(1)
                .map(log -> log.directory().getFileName().toString()).toList();
    }
}
