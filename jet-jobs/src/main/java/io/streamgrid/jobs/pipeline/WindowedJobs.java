package io.streamgrid.jobs.pipeline;

import com.hazelcast.jet.JetService;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.config.JobConfig;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.impl.WindowedDag;

import java.nio.file.Path;

/** Submits {@link WindowedJob}s to a cluster, exactly-once. */
public final class WindowedJobs {
    private WindowedJobs() {
    }

    /**
     * Submits {@code job} under its name with the EXACTLY_ONCE guarantee and the given snapshot
     * interval, reading the log of its schema under {@code options.ingestDir()} (which must exist
     * and hold the schema or a compatible version: the job fails naming the field otherwise). The job restarts from its last snapshot when a member leaves or joins; when it
     * fails it is suspended, keeping that snapshot, until resumed ({@code Job.resume()}). With
     * {@link JobOptions#replay()} it runs as that {@link Replay}: its own name, maps and tables.
     */
    public static Job submit(final JetService jet, final WindowedJob<?> job, final JobOptions options) {
        return submit(jet, job, options, null);
    }

    /**
     * As {@link #submit(JetService, WindowedJob, JobOptions)}, also writing to Cassandra exactly-once
     * when {@code cassandra} is not null (create its tables first: {@code CassandraSchema.ensure}).
     */
    public static Job submit(final JetService jet, final WindowedJob<?> job, final JobOptions options,
                             final CassandraOutput cassandra) {
        return submit(jet, job, options, cassandra, options.jobConfig(job.name()));
    }

    /** As {@link #submit(JetService, WindowedJob, JobOptions, CassandraOutput)} with a config of the caller's (jars of user classes). */
    public static Job submit(final JetService jet, final WindowedJob<?> job, final JobOptions options, final CassandraOutput cassandra,
                             final JobConfig config) {
        return jet.newJob(WindowedDag.of(job, options.logs(job.schema().name()), options.localParallelism(), cassandra,
                options.replay()), config);
    }

    /** Where the job's schema log is, as the members see it. */
    public static Path logDirectory(final WindowedJob<?> job, final JobOptions options) {
        return SchemaLog.directoryOf(options.ingestDir().toAbsolutePath(), job.schema().name());
    }
}
