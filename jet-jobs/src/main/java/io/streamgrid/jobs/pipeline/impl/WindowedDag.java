package io.streamgrid.jobs.pipeline.impl;

import com.hazelcast.jet.core.DAG;
import io.streamgrid.jobs.ingest.ChronicleLogs;
import io.streamgrid.jobs.ingest.LogSource;
import io.streamgrid.jobs.pipeline.CassandraOutput;
import io.streamgrid.jobs.pipeline.Replay;
import io.streamgrid.jobs.pipeline.ResultHandler;
import io.streamgrid.jobs.pipeline.StateWriter;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.schema.FieldType;
import io.streamgrid.jobs.window.WindowDefinition;

/** Builds the DAG of a windowed job: its schema log read and windowed → state writer (and Cassandra sinks). */
public final class WindowedDag {
    private WindowedDag() {
    }

    public static DAG of(final WindowedJob<?> job, final String logDir, final int localParallelism) {
        return of(job, logDir, localParallelism, null);
    }

    /** With {@code cassandra} (may be null): one exactly-once Cassandra sink vertex per binding. */
    public static DAG of(final WindowedJob<?> job, final String logDir, final int localParallelism,
                         final CassandraOutput cassandra) {
        return of(job, logDir, localParallelism, cassandra, null);
    }

    /** As {@link #of(WindowedJob, String, int, CassandraOutput)}, run as {@code replay} (null: the live job). */
    public static DAG of(final WindowedJob<?> job, final String logDir, final int localParallelism,
                         final CassandraOutput cassandra, final Replay replay) {
        return of(job, new ChronicleLogs(logDir, job.schema().name()), localParallelism, cassandra, replay);
    }

    /** Whether the job's result handler implements the string-key variant of {@code onWindow}. */
    private static boolean takesStringKeys(final WindowedJob<?> job) {
        try {
            return job.newResultHandler().getClass().getMethod("onWindow", String.class, long.class, long.class, Object.class,
                    int.class, boolean.class, StateWriter.class).getDeclaringClass() != ResultHandler.class;
        } catch (final NoSuchMethodException e) {
            throw new IllegalStateException("bug: ResultHandler has no onWindow(String, ...)", e);
        }
    }

    /** As {@link #of(WindowedJob, String, int, CassandraOutput, Replay)}, reading the log of {@code logs}. */
    public static DAG of(final WindowedJob<?> job, final LogSource logs, final int localParallelism,
                         final CassandraOutput cassandra, final Replay replay) {
        if (job.schema().layout().field(job.schema().layout().keyIndex()).type() == FieldType.STRING && !takesStringKeys(job)) {
            throw new IllegalArgumentException("job " + job.name() + " windows schema " + job.schema().name() + " by its key "
                    + job.schema().keyField() + ", a string, but its result handler " + job.newResultHandler().getClass().getName()
                    + " takes long keys only: implement its onWindow(String key, ...), or build the job with WindowedJob.builder");
        }
        if (cassandra != null) {
            cassandra.bindings().forEach(binding -> checkRetractions(job, binding));
        }
        return JobDag.of(job.name(), "ingest-window", () -> new WindowP<>(job, logs, replay), localParallelism, cassandra, replay);
    }

    /**
     * Session windows retract results merged away (the state map's key is removed); a table bound to
     * such a map must delete those rows, so the binding needs a key-to-primary-key function.
     */
    static void checkRetractions(final WindowedJob<?> job, final CassandraOutput.Binding binding) {
        if (binding.keyToPrimaryKey() == null && job.policy().window() instanceof WindowDefinition.Session
                && binding.map().equals(job.stateMap())) {
            throw new IllegalArgumentException("job " + job.name() + " retracts sessions merged away from " + binding.map()
                    + ", but its binding to table " + binding.table().qualifiedName() + " has no key-to-primary-key function: "
                    + "give one (CassandraOutput.Binding's 4th argument) so that retracted rows are deleted from the table");
        }
    }
}
