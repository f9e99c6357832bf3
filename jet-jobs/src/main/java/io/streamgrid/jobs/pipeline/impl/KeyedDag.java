package io.streamgrid.jobs.pipeline.impl;

import com.hazelcast.jet.core.DAG;
import io.streamgrid.jobs.ingest.ChronicleLogs;
import io.streamgrid.jobs.ingest.LogSource;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.pipeline.CassandraOutput;
import io.streamgrid.jobs.pipeline.Replay;

/** Builds the DAG of a keyed job: schema log + keyed function → state writer (and Cassandra sinks). */
public final class KeyedDag {
    private KeyedDag() {
    }

    /** {@code logDir}: the job's schema log, as the members see it; {@code cassandra} may be null. */
    public static DAG of(final KeyedJob<?> job, final String logDir, final int localParallelism, final CassandraOutput cassandra) {
        return of(job, logDir, localParallelism, cassandra, null);
    }

    /** As {@link #of(KeyedJob, String, int, CassandraOutput)}, run as {@code replay} (null: the live job). */
    public static DAG of(final KeyedJob<?> job, final String logDir, final int localParallelism, final CassandraOutput cassandra,
                         final Replay replay) {
        return of(job, new ChronicleLogs(logDir, job.schema().name()), localParallelism, cassandra, replay);
    }

    /** As {@link #of(KeyedJob, String, int, CassandraOutput, Replay)}, reading the logs of {@code logs}. */
    public static DAG of(final KeyedJob<?> job, final LogSource logs, final int localParallelism, final CassandraOutput cassandra,
                         final Replay replay) {
        return JobDag.of(job.name(), "keyed", () -> new KeyedP<>(job, logs, replay), localParallelism, cassandra, replay);
    }
}
