package io.streamgrid.cli;

import com.hazelcast.jet.Job;
import com.hazelcast.jet.config.JobConfig;
import com.hazelcast.jet.core.JobStatus;
import com.hazelcast.jet.core.JobSuspensionCause;
import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.KeyedJobs;
import io.streamgrid.jobs.keyed.StreamGridJob;
import io.streamgrid.jobs.pipeline.JobDefinition;
import io.streamgrid.jobs.pipeline.CassandraOutput;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.pipeline.WindowedJobs;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.usecase.IpTrafficJob;
import io.streamgrid.node.ConfigException;
import io.streamgrid.node.impl.ConfigTree;
import io.streamgrid.sink.CassandraSchema;
import io.streamgrid.sink.CassandraTarget;
import io.streamgrid.sink.SchemaMismatchException;
import io.streamgrid.sink.SinkOptions;
import io.streamgrid.node.impl.JobCatalog;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code streamgrid job}: submit (built-in jobs or your own jar), list, cancel, restart and resume jobs. */
@Command(name = "job", mixinStandardHelpOptions = true,
        description = "Submit (a built-in job or your own from a jar), list, cancel, restart and resume Jet jobs.",
        subcommands = {JobCommand.Submit.class, JobCommand.ListJobs.class, JobCommand.Cancel.class, JobCommand.Restart.class,
                JobCommand.Resume.class})
final class JobCommand {

    @Command(name = "submit", mixinStandardHelpOptions = true,
            description = {"Submit a job (exactly-once) to the cluster: a built-in one by NAME (ip-traffic, "
                    + "user-clicks-hourly, user-sessions, machine-health), or your own with --jar and --class "
                    + "(a class implementing io.streamgrid.jobs.keyed.StreamGridJob; the members need "
                    + "jobs.allow-code-upload: true)."})
    static final class Submit implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "NAME", arity = "0..1", description = "A built-in job.")
        String name;

        @Option(names = "--jar", paramLabel = "FILE", description = "Your job's jar, shipped to the members with the job.")
        Path jar;

        @Option(names = "--class", paramLabel = "CLASS", description = "Your job's class in the jar (implements StreamGridJob).")
        String className;

        @Option(names = "--name", paramLabel = "NAME", description = "Run your job under this name instead of its own.")
        String rename;

        @Mixin
        ConfigOptions options;

        @Mixin
        ConfigOptions.Members members;

        @Option(names = "--cassandra", description = "Also write results to Cassandra (settings: the cassandra section); ip-traffic only.")
        boolean cassandra;

        @Override
        public Integer call() {
            final ConfigTree tree = options.tree();
            if (jar != null || className != null) {
                return submitJar(tree);
            }
            if (name == null) {
                throw new ConfigException("name a built-in job (ip-traffic, user-clicks-hourly, user-sessions, machine-health), "
                        + "or give --jar and --class for your own");
            }
            final WindowedJob<?> job = JobCatalog.job(name, tree);
            final JobOptions jobOptions = JobCatalog.options(tree);
            final CassandraOutput output = cassandra ? cassandraOutput(job, tree) : null;
            checkLogs(job, jobOptions);
            return ClientConnector.withClient(tree, members.addresses, client -> {
                final Job submitted = WindowedJobs.submit(client.getJet(), job, jobOptions, output);
                final PrintWriter out = spec.commandLine().getOut();
                out.println("submitted " + job.name() + " (id " + submitted.getIdString() + "), exactly-once, snapshots every "
                        + jobOptions.snapshotIntervalMs() + " ms, reading " + logDirectories(job, jobOptions));
                out.println("results in " + job.stateMap() + ", late events in " + job.lateMap() + ", rejected records in "
                        + job.rejectedMap() + (output == null ? "" : "; exactly-once into Cassandra tables "
                        + output.bindings().stream().map(b -> b.table().qualifiedName()).toList()));
                return 0;
            });
        }

        private int submitJar(final ConfigTree tree) {
            if (jar == null || className == null) {
                throw new ConfigException("--jar and --class go together: the jar with your job and the class implementing "
                        + StreamGridJob.class.getName());
            }
            if (name != null || cassandra) {
                throw new ConfigException("--jar submits your own job: leave out the built-in job's NAME and --cassandra");
            }
            final JobOptions jobOptions = JobCatalog.options(tree);
            final UserJar userJar = UserJar.load(jar, className);
            final JobDefinition job = renamed(userJar.job());
            checkLogs(job, jobOptions);
            return ClientConnector.withClient(tree, members.addresses, client -> {
                final JobConfig config = jobOptions.jobConfig(job.name()).addJar(userJar.url());
                final Job submitted = userJar.submit(() -> job instanceof KeyedJob<?> keyed
                        ? KeyedJobs.submit(client.getJet(), keyed, jobOptions, null, config)
                        : WindowedJobs.submit(client.getJet(), (WindowedJob<?>) job, jobOptions, null, config));
                final PrintWriter out = spec.commandLine().getOut();
                out.println("submitted " + job.name() + " (id " + submitted.getIdString() + ") from " + jar.getFileName()
                        + " (" + className + "), exactly-once, snapshots every " + jobOptions.snapshotIntervalMs()
                        + " ms, reading " + logDirectories(job, jobOptions));
                out.println("writes " + job.stateMaps() + ", late events in " + job.lateMap() + ", rejected records in "
                        + job.rejectedMap());
                return 0;
            });
        }

        /** The jar's job, under --name when given (keyed jobs only: a windowed job's name is its own). */
        private JobDefinition renamed(final JobDefinition loaded) {
            if (rename == null) {
                return loaded;
            }
            if (loaded instanceof KeyedJob<?> keyed) {
                return keyed.named(rename);
            }
            throw new ConfigException("--name renames keyed jobs; " + className + " is a windowed job named " + loaded.name()
                    + ": leave out --name");
        }
    }

    /**
     * Refuses a job one of whose schema logs is missing or holds an incompatible version, before
     * anything reaches the cluster.
     */
    static void checkLogs(final JobDefinition job, final JobOptions options) {
        for (final EventSchema schema : job.schemas()) {
            final Path dir = SchemaLog.directoryOf(options.ingestDir().toAbsolutePath(), schema.name());
            if (!SchemaLog.exists(dir)) {
                throw new ConfigException("job " + job.name() + " reads schema " + schema.name() + ", but there is no log of it in "
                        + dir + ": load its events first ('streamgrid ingest load FILE --schema " + schema.name()
                        + "' or 'streamgrid ingest generate --schema " + schema.name() + "')");
            }
            try {
                SchemaLog.checkCompatible(dir, schema);
            } catch (final IllegalArgumentException e) {
                throw new ConfigException("job " + job.name() + ": " + e.getMessage(), e);
            }
        }
    }

    /** Where the job's schema logs are, for the submit line. */
    private static String logDirectories(final JobDefinition job, final JobOptions options) {
        return job.schemas().stream().map(schema -> SchemaLog.directoryOf(options.ingestDir().toAbsolutePath(), schema.name()).toString())
                .collect(java.util.stream.Collectors.joining(", "));
    }

    /** Creates (or checks) the job's tables, then describes where its results go. */
    static CassandraOutput cassandraOutput(final WindowedJob<?> job, final ConfigTree tree) {
        if (!IpTrafficJob.NAME.equals(job.name())) {
            throw new ConfigException("--cassandra: only ip-traffic writes to Cassandra so far, not " + job.name());
        }
        final CassandraTarget target = JobCatalog.cassandraTarget(tree);
        final CassandraOutput output = IpTrafficJob.cassandraOutput(target, SinkOptions.defaults());
        try (CqlSession session = target.connect()) {
            for (final CassandraOutput.Binding binding : output.bindings()) {
                CassandraSchema.ensure(session, target, binding.table());
            }
        } catch (final AllNodesFailedException e) {
            throw new ConfigException("no Cassandra node answered at " + target.contactPoints()
                    + ": start one ('streamgrid cassandra') or set cassandra.contact-points", e);
        } catch (final SchemaMismatchException e) {
            throw new ConfigException(e.getMessage(), e);
        }
        return output;
    }

    @Command(name = "list", mixinStandardHelpOptions = true, description = "List the cluster's jobs and their status.")
    static final class ListJobs implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        ConfigOptions options;

        @Mixin
        ConfigOptions.Members members;

        @Override
        public Integer call() {
            return ClientConnector.withClient(options.tree(), members.addresses, client -> {
                final PrintWriter out = spec.commandLine().getOut();
                for (final Job job : client.getJet().getJobs()) {
                    final JobStatus status = job.getStatus();
                    out.println(job.getIdString() + "  " + job.getName() + "  " + status
                            + (status == JobStatus.SUSPENDED ? "  (" + suspensionCause(job) + ")" : ""));
                }
                return 0;
            });
        }
    }

    /** The first line of why a job was suspended. */
    static String suspensionCause(final Job job) {
        final JobSuspensionCause cause = job.getSuspensionCause();
        final String text = cause.requestedByUser() ? "suspended by a user" : cause.errorCause();
        return text.lines().filter(line -> !line.isBlank() && !line.startsWith("Execution failure")).findFirst().orElse(text)
                .replaceFirst("^com\\.hazelcast\\.jet\\.JetException: ", "");
    }

    /** A command on one job by name: connects, finds the job, acts on it and prints what it did. */
    abstract static class OnNamedJob implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(paramLabel = "NAME", description = "The job.")
        String name;

        @Mixin
        ConfigOptions options;

        @Mixin
        ConfigOptions.Members members;

        /** Acts on {@code job}; returns the line to print. @throws ConfigException when the job is not in a state for it */
        abstract String act(Job job);

        @Override
        public Integer call() {
            return ClientConnector.withClient(options.tree(), members.addresses, client -> {
                final Job job = client.getJet().getJob(name);
                if (job == null) {
                    throw new ConfigException("no job named '" + name + "' in the cluster: see 'streamgrid job list'");
                }
                spec.commandLine().getOut().println(act(job));
                return 0;
            });
        }
    }

    @Command(name = "cancel", mixinStandardHelpOptions = true,
            description = "Cancel a job: it stops and its snapshots are deleted (its maps keep what it wrote).")
    static final class Cancel extends OnNamedJob {
        @Override
        String act(final Job job) {
            if (job.getStatus().isTerminal()) {
                throw new ConfigException("job '" + name + "' is " + job.getStatus() + ": there is nothing to cancel");
            }
            job.cancel();
            return "cancelled " + name + " (id " + job.getIdString() + ")";
        }
    }

    @Command(name = "restart", mixinStandardHelpOptions = true,
            description = "Restart a running job from its last snapshot (exactly-once: nothing lost, nothing twice).")
    static final class Restart extends OnNamedJob {
        @Override
        String act(final Job job) {
            if (job.getStatus() != JobStatus.RUNNING) {
                throw new ConfigException("job '" + name + "' is " + job.getStatus() + ", not RUNNING"
                        + (job.getStatus() == JobStatus.SUSPENDED ? ": resume it with 'streamgrid job resume " + name + "'" : ""));
            }
            job.restart();
            return "restarted " + name + " (id " + job.getIdString() + ") from its last snapshot";
        }
    }

    @Command(name = "resume", mixinStandardHelpOptions = true,
            description = "Resume a suspended job from its last snapshot (after a failure was fixed, e.g. a Cassandra "
                    + "transaction that was decided but not committed).")
    static final class Resume extends OnNamedJob {
        @Override
        String act(final Job job) {
            final JobStatus status = job.getStatus();
            if (status != JobStatus.SUSPENDED) {
                throw new ConfigException("job '" + name + "' is " + status + ", not SUSPENDED: only a suspended job can be resumed");
            }
            final String cause = suspensionCause(job);
            job.resume();
            return "resumed " + name + " (id " + job.getIdString() + ") from its last snapshot; it was suspended because: " + cause;
        }
    }
}
