package io.streamgrid.cli;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.config.JobConfig;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.ingest.Progress;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.JobParameter;
import io.streamgrid.jobs.keyed.StreamGridJob;
import io.streamgrid.jobs.pipeline.JobDefinition;
import io.streamgrid.jobs.pipeline.CassandraOutput;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.pipeline.Replay;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.node.ConfigException;
import io.streamgrid.node.impl.ConfigTree;
import io.streamgrid.node.impl.JobCatalog;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What a submission needs, live or replay: the job (built-in by NAME, or from a jar), the
 * configuration and members, and whether it writes to Cassandra.
 */
abstract class JobSubmission extends ConnectedCommand implements Callable<Integer> {
    /** How often a followed replay's metrics are looked at; Jet collects them every few seconds. */
    private static final long REPLAY_POLL_MS = 500;

    @Parameters(paramLabel = "NAME", arity = "0..1", description = "The job: a built-in one or one a jar on the class path declares.")
    String name;

    @Option(names = "--jar", paramLabel = "FILE", description = "Your job's jar, shipped to the members with the job.")
    Path jar;

    @Option(names = "--class", paramLabel = "CLASS", description = "Your job's class in the jar (implements StreamGridJob).")
    String className;

    @Option(names = "--name", paramLabel = "NAME", description = "Run your job under this name instead of its own.")
    String rename;

    @Option(names = "--cassandra", description = "Also write the results, exactly-once, to the Cassandra tables the job "
            + "declares (the cluster of the cassandra section); refused for a job that declares none.")
    boolean cassandra;

    @Option(names = "--param", paramLabel = "NAME=VALUE", description = "A parameter the job declares, e.g. "
            + "--param model-version=3 for fraud-scoring; one the job does not declare is refused, naming those it does.")
    Map<String, String> parameters = new LinkedHashMap<>();

    /** A replay follows its progress until it has caught up (see {@link JobReplay}). */
    boolean followReplay;

    /** Submits the job, live ({@code replay} null) or as {@code replay}; prints what it submitted and where results go. */
    final int submit(final Replay replay) {
        final ConfigTree tree = options.tree();
        final JobOptions jobOptions = JobCatalog.options(tree).withReplay(replay);
        if (jar != null || className != null) {
            return submitJar(jobOptions, tree);
        }
        final Map<String, StreamGridJob> services = ServiceJobs.byName();
        final List<String> known = new ArrayList<>(JobCatalog.NAMES);
        known.addAll(services.keySet());
        if (name == null) {
            throw new ConfigException("name a job (" + String.join(", ", known) + "), or give --jar and --class for your own");
        }
        final StreamGridJob service = services.get(name);
        if (service != null) {
            return submitDefinition(withParameters(service).job(), jobOptions, tree, jobOptions.jobConfig(name), Supplier::get,
                    "", parametersNote());
        }
        if (!JobCatalog.NAMES.contains(name)) {
            throw new ConfigException("unknown job '" + name + "'" + NearMiss.of(name, known).map(m -> " (did you mean '" + m + "'?)")
                    .orElse("") + ": choose one of " + String.join(", ", known) + ", or give --jar and --class for your own");
        }
        if (!parameters.isEmpty()) {
            throw new ConfigException("--param: " + name + " takes no parameters (its settings are under jobs." + name
                    + " in the configuration)");
        }
        final WindowedJob<?> job = JobCatalog.job(name, tree);
        return submitDefinition(job, jobOptions, tree, jobOptions.jobConfig(job.name()), Supplier::get, "", "");
    }

    /** {@code job} with the --param values, each checked against what the job declares. */
    private StreamGridJob withParameters(final StreamGridJob job) {
        if (parameters.isEmpty()) {
            return job;
        }
        final List<String> declared = job.parameters().stream().map(JobParameter::name).toList();
        for (final String given : parameters.keySet()) {
            if (!declared.contains(given)) {
                throw new ConfigException("--param " + given + ": " + (declared.isEmpty() ? "this job takes no parameters"
                        : "this job takes " + job.parameters().stream().map(p -> p.name() + " (" + p.description() + ")")
                        .collect(java.util.stream.Collectors.joining("; "))));
            }
        }
        try {
            return job.withParameters(Map.copyOf(parameters));
        } catch (final IllegalArgumentException e) {
            throw new ConfigException("--param " + e.getMessage(), e);
        }
    }

    private String parametersNote() {
        return parameters.isEmpty() ? "" : ", with " + parameters.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(java.util.stream.Collectors.joining(", "));
    }

    private int submitJar(final JobOptions jobOptions, final ConfigTree tree) {
        if (jar == null || className == null) {
            throw new ConfigException("--jar and --class go together: the jar with your job and the class implementing "
                    + StreamGridJob.class.getName());
        }
        if (name != null) {
            throw new ConfigException("--jar submits your own job: leave out the job NAME (--name renames it)");
        }
        final UserJar userJar = UserJar.load(jar, className, this::withParameters);
        final JobDefinition job = renamed(userJar.job());
        return submitDefinition(job, jobOptions, tree, jobOptions.jobConfig(job.name()).addJar(userJar.url()), userJar::submit,
                " from " + jar.getFileName() + " (" + className + ")", parametersNote());
    }

    /**
     * Submits a keyed or windowed job with {@code config}, the submission run by {@code around}
     * (in a jar's class loader, or as it is), and prints "submitted … {@code origin}, reading …
     * {@code note}" and where the job writes (with --cassandra, its declared tables too).
     */
    private int submitDefinition(final JobDefinition job, final JobOptions jobOptions, final ConfigTree tree, final JobConfig config,
                                 final Function<Supplier<Job>, Job> around, final String origin, final String note) {
        final CassandraOutput output = cassandra ? JobSubmissionChecks.cassandraOutput(job, tree, jobOptions.replay()) : null;
        JobSubmissionChecks.checkLogs(job, jobOptions);
        return withClient(client -> {
            JobSubmissionChecks.checkReplayTargets(client, job, jobOptions.replay());
            final JobConfig made = makeWay(client, config);
            final Job submitted = around.apply(() -> Jobs.submit(client.getJet(), job, jobOptions, output, made));
            final PrintWriter out = spec.commandLine().getOut();
            out.println(JobSubmissionChecks.submittedLine(job, submitted, jobOptions) + origin + ", reading " + JobSubmissionChecks.logDirectories(job, jobOptions) + note
                    + JobSubmissionChecks.restoredNote(made));
            out.println(JobSubmissionChecks.outputsLine(job, jobOptions.replay()) + (output == null ? "" : "; exactly-once into Cassandra tables "
                    + (jobOptions.replay() == null ? output : jobOptions.replay().output(output)).bindings().stream()
                    .map(b -> b.table().qualifiedName()).toList()));
            return followed(submitted, job, jobOptions);
        });
    }

    /**
     * Makes way in the cluster for submitting {@code config}'s job and returns the config to submit
     * it with; as it is here (a replay's own checks are {@link #checkReplayTargets}).
     */
    JobConfig makeWay(final HazelcastInstance client, final JobConfig config) {
        return config;
    }

    /**
     * For a replay, unless told not to wait: its progress until it has caught up with the
     * records its logs hold now; 0 for a live job.
     */
    private int followed(final Job submitted, final JobDefinition job, final JobOptions jobOptions) {
        if (jobOptions.replay() == null || !followReplay) {
            return 0;
        }
        final Progress progress = new Progress();
        final JobSubmissionChecks.LogSize logs = JobSubmissionChecks.LogSize.of(job, jobOptions);
        final PrintWriter out = spec.commandLine().getOut();
        out.printf(java.util.Locale.ROOT, "following the replay over %,d records until it has caught up (Ctrl-C stops "
                + "following, not the replay; --no-wait returns at once)%n", logs.records());
        out.flush();
        return new ReplayProgress(submitted, logs.records(), logs.partitions(), progress, out, spec.commandLine().getErr(),
                REPLAY_POLL_MS).follow();
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
