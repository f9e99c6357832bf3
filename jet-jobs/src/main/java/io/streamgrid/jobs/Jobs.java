package io.streamgrid.jobs;

import com.hazelcast.jet.JetService;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.config.JobConfig;
import com.hazelcast.jet.core.DAG;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.pipeline.CassandraOutput;
import io.streamgrid.jobs.pipeline.JobDefinition;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.pipeline.impl.KeyedDag;
import io.streamgrid.jobs.pipeline.impl.WindowedDag;

import java.nio.file.Path;

/**
 * The one way to run a StreamGrid job, whatever its shape ({@link KeyedJob} or {@link WindowedJob}):
 * the CLI, the examples, perf and your code submit through here. It is the only public class that
 * reaches into the runtime ({@code *.impl}); the API packages do not (the build checks it).
 *
 * <p>A job is submitted under its name, EXACTLY_ONCE at {@link JobOptions#snapshotIntervalMs()},
 * reading the logs of its schemas from {@link JobOptions}: Chronicle logs under
 * {@link JobOptions#ingestDir()} (the first schema's at {@link #logDirectory}) or the Kafka topics of
 * {@link JobOptions#kafka()}. The logs must exist and hold the job's schemas (or compatible versions):
 * the members check that when the job starts, and the job fails naming the field otherwise. It
 * restarts from its last snapshot when a member leaves or joins; when it fails it is suspended,
 * keeping that snapshot, until resumed ({@code Job.resume()}, {@code streamgrid job resume}). With
 * {@link JobOptions#replay()} it runs as that replay: its own name, maps and tables, the tables of
 * {@code cassandra} replaced by the replay's (create those first).
 */
public final class Jobs {
    private Jobs() {
    }

    /** Submits {@code job} with {@code options} and the Jet config they give ({@link JobOptions#jobConfig}). */
    public static Job submit(final JetService jet, final JobDefinition job, final JobOptions options) {
        return submit(jet, job, options, null);
    }

    /**
     * As {@link #submit(JetService, JobDefinition, JobOptions)}, also writing to Cassandra exactly-once
     * when {@code cassandra} is not null (create its tables first: {@code CassandraSchema.ensure}).
     */
    public static Job submit(final JetService jet, final JobDefinition job, final JobOptions options, final CassandraOutput cassandra) {
        return submit(jet, job, options, cassandra, options.jobConfig(job.name()));
    }

    /**
     * As {@link #submit(JetService, JobDefinition, JobOptions, CassandraOutput)} with a Jet config of
     * the caller's: jars of user classes, or (benchmarks) another processing guarantee.
     *
     * @throws IllegalArgumentException for a definition that is neither a {@link KeyedJob} nor a {@link WindowedJob}
     */
    public static Job submit(final JetService jet, final JobDefinition job, final JobOptions options, final CassandraOutput cassandra,
                             final JobConfig config) {
        return jet.newJob(dag(job, options, cassandra), config);
    }

    /** Where {@code job}'s first schema log is, as the members see it (Chronicle logs). */
    public static Path logDirectory(final JobDefinition job, final JobOptions options) {
        return SchemaLog.directoryOf(options.ingestDir().toAbsolutePath(), job.schemas().get(0).name());
    }

    private static DAG dag(final JobDefinition job, final JobOptions options, final CassandraOutput cassandra) {
        final String firstSchema = job.schemas().get(0).name();
        if (job instanceof KeyedJob<?> keyed) {
            return KeyedDag.of(keyed, options.logs(firstSchema), options.localParallelism(), cassandra, options.replay());
        }
        if (job instanceof WindowedJob<?> windowed) {
            return WindowedDag.of(windowed, options.logs(firstSchema), options.localParallelism(), cassandra, options.replay());
        }
        throw new IllegalArgumentException("job " + job.name() + " is a " + job.getClass().getName()
                + ": build it with KeyedJob.builder or implement WindowedJob");
    }
}
