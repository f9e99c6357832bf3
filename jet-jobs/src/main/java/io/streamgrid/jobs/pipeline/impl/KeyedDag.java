package io.streamgrid.jobs.pipeline.impl;

import com.hazelcast.jet.core.DAG;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.pipeline.CassandraOutput;

/** Builds the DAG of a keyed job: schema log + keyed function → state writer (and Cassandra sinks). */
public final class KeyedDag {
    private KeyedDag() {
    }

    /** {@code logDir}: the job's schema log, as the members see it; {@code cassandra} may be null. */
    public static DAG of(final KeyedJob<?> job, final String logDir, final int localParallelism, final CassandraOutput cassandra) {
        return JobDag.of(job.name(), "keyed", () -> new KeyedP<>(job, logDir), localParallelism, cassandra);
    }
}
