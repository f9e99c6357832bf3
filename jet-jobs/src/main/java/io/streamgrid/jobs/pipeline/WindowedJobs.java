package io.streamgrid.jobs.pipeline;

import com.hazelcast.jet.JetService;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.config.JobConfig;
import io.streamgrid.jobs.pipeline.impl.WindowedDag;

/** Submits {@link WindowedJob}s to a cluster, exactly-once. */
public final class WindowedJobs {
    private WindowedJobs() {
    }

    /**
     * Submits {@code job} under its name with the EXACTLY_ONCE guarantee and the given snapshot
     * interval. The job restarts from its last snapshot when a member leaves or joins; when it
     * fails it is suspended, keeping that snapshot, until resumed ({@code Job.resume()}).
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
        final JobConfig config = options.jobConfig(job.name());
        return jet.newJob(WindowedDag.of(job, options.ingestDir().toAbsolutePath().toString(), options.localParallelism(),
                cassandra), config);
    }
}
