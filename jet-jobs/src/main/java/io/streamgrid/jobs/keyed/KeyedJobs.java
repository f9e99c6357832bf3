package io.streamgrid.jobs.keyed;

import com.hazelcast.jet.JetService;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.config.JobConfig;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.CassandraOutput;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.pipeline.impl.KeyedDag;

import java.nio.file.Path;

/** Submits {@link KeyedJob}s to a cluster, exactly-once. */
public final class KeyedJobs {
    private KeyedJobs() {
    }

    /**
     * Submits {@code job} under its name, EXACTLY_ONCE, reading the log of its schema under
     * {@code options.ingestDir()} ({@link SchemaLog#directoryOf}). The job restarts from its last
     * snapshot when a member leaves or joins; when it fails it is suspended, keeping that snapshot,
     * until resumed. The log must exist and hold the job's schema (or a compatible version): the
     * members check that when the job starts, and the job fails naming the field otherwise. With
     * {@link JobOptions#replay()} it runs as that replay: its own name, maps and tables, {@code cassandra}'s tables
     * replaced by the replay's ({@link io.streamgrid.jobs.pipeline.Replay#output}; create those first).
     *
     * @param cassandra tables to write exactly-once, or null
     */
    public static Job submit(final JetService jet, final KeyedJob<?> job, final JobOptions options, final CassandraOutput cassandra) {
        return submit(jet, job, options, cassandra, options.jobConfig(job.name()));
    }

    public static Job submit(final JetService jet, final KeyedJob<?> job, final JobOptions options) {
        return submit(jet, job, options, null);
    }

    /** As {@link #submit(JetService, KeyedJob, JobOptions, CassandraOutput)} with a config of the caller's (jars of user classes). */
    public static Job submit(final JetService jet, final KeyedJob<?> job, final JobOptions options, final CassandraOutput cassandra,
                             final JobConfig config) {
        return jet.newJob(KeyedDag.of(job, options.logs(job.schema().name()), options.localParallelism(), cassandra,
                options.replay()), config);
    }

    /** Where the job's schema log is, as the members see it. */
    public static Path logDirectory(final KeyedJob<?> job, final JobOptions options) {
        return SchemaLog.directoryOf(options.ingestDir().toAbsolutePath(), job.schema().name());
    }
}
