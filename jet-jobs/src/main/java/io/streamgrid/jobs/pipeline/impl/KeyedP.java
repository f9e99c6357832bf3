package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.ingest.LogSource;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.pipeline.Replay;
import io.streamgrid.jobs.pipeline.StateWriter;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.FieldType;

import java.util.Arrays;
import java.util.List;

/**
 * A keyed job's processor: the partitions of its schema logs through {@link KeyedRun}s. Each
 * schema's log, and each emitted schema's, is the log of that name in {@code logs}.
 */
final class KeyedP<S> extends PartitionTasksP<KeyedRun<S>> {
    private final KeyedJob<S> job;
    private final LogSource source;
    private EventLog[] logs = new EventLog[0];
    private DimensionReplica[] replicas = new DimensionReplica[0];
    private EventLog[] emitLogs = new EventLog[0];
    private final Replay replay;

    /** {@code replay}: null for the live job. */
    KeyedP(final KeyedJob<S> job, final LogSource source, final Replay replay) {
        super(job.name(), job.policy().allowedDisorderMs(), job.policy().idleTimeoutMs(), replay);
        this.job = job;
        this.source = source;
        this.replay = replay;
    }

    @Override
    int openLog(final Context context) {
        logs = new EventLog[job.schemas().size()];
        for (int i = 0; i < logs.length; i++) {
            logs[i] = source.open(job.schemas().get(i), job.schemas().get(i).name());
            if (logs[i].partitions() != logs[0].partitions()) {
                throw new IllegalStateException("job " + job.name() + " reads schemas " + job.schemas().get(0).name() + " and "
                        + job.schemas().get(i).name() + " co-partitioned by key, but their logs have " + logs[0].partitions()
                        + " and " + logs[i].partitions() + " partitions: load both with the same ingest.partitions");
            }
        }
        final List<String> dimensionMaps = job.dimensionMaps();
        replicas = new DimensionReplica[dimensionMaps.size()];
        for (int i = 0; i < replicas.length; i++) {
            replicas[i] = DimensionReplica.acquire(context.hazelcastInstance(), dimensionMaps.get(i), versioning(i));
        }
        emitLogs = new EventLog[job.emits().size()];
        for (int i = 0; i < emitLogs.length; i++) {
            emitLogs[i] = EmittedEvents.openLog(source, job.emits().get(i), logs[0].partitions(), job.name(), replay);
        }
        return logs[0].partitions();
    }

    /** How dimension map {@code i} (the job's lookups first, then the maps it reads) is replicated. */
    private DimensionReplica.Versioning versioning(final int i) {
        if (i >= job.lookups().size() || !job.lookups().get(i).asOfEventTime()) {
            return DimensionReplica.Versioning.LATEST;
        }
        final EventSchema first = job.schemas().get(0);
        return first.field(job.lookups().get(i).keyField()).type() == FieldType.STRING
                ? DimensionReplica.Versioning.STRING_KEYS : DimensionReplica.Versioning.LONG_KEYS;
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
    void flushOutputs() {
        for (final EventLog log : emitLogs) {
            log.flush();
        }
    }

    @Override
    void closeLog() {
        for (final DimensionReplica replica : replicas) {
            if (replica != null) {
                replica.release();
            }
        }
        for (final EventLog log : logs) {
            if (log != null) {
                log.close();
            }
        }
        for (final EventLog log : emitLogs) {
            if (log != null) {
                log.close();
            }
        }
    }

    @Override
    String source() {
        return "logs " + Arrays.stream(logs).map(EventLog::name).toList() + " of " + source.describe();
    }
}
