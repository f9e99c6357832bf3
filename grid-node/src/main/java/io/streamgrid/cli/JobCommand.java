package io.streamgrid.cli;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.config.JobConfig;
import com.hazelcast.jet.core.JobStatus;
import com.hazelcast.jet.core.JobSuspensionCause;
import com.hazelcast.jet.impl.JobExecutionRecord;
import com.hazelcast.jet.impl.JobRepository;
import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.ingest.Progress;
import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.JobParameter;
import io.streamgrid.jobs.keyed.StreamGridJob;
import io.streamgrid.jobs.pipeline.JobDefinition;
import io.streamgrid.jobs.pipeline.CassandraOutput;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.pipeline.Replay;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.node.ConfigException;
import io.streamgrid.node.impl.ConfigTree;
import io.streamgrid.node.impl.HazelcastConfigFactory;
import io.streamgrid.sink.CassandraSchema;
import io.streamgrid.sink.CassandraTarget;
import io.streamgrid.sink.SchemaMismatchException;
import io.streamgrid.sink.SinkOptions;
import io.streamgrid.node.impl.JobCatalog;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.function.Function;
import java.util.function.Supplier;

/** {@code streamgrid job}: submit (built-in jobs or your own jar), replay, list, cancel, restart and resume jobs, list their checkpoints. */
@Command(name = "job", mixinStandardHelpOptions = true,
        description = "Submit (a built-in job or your own from a jar), replay, list, cancel, restart and resume Jet jobs; list a job's checkpoints.",
        subcommands = {JobCommand.Submit.class, JobCommand.ReplayJob.class, JobCommand.ListJobs.class, JobCommand.Cancel.class,
                JobCommand.Restart.class, JobCommand.Resume.class, JobCommand.Checkpoints.class})
final class JobCommand {
    /** How often a followed replay's metrics are looked at; Jet collects them every few seconds. */
    private static final long REPLAY_POLL_MS = 500;

    /**
     * What a submission needs, live or replay: the job (built-in by NAME, or from a jar), the
     * configuration and members, and whether it writes to Cassandra.
     */
    abstract static class Submission extends ConnectedCommand implements Callable<Integer> {
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

        /** A replay follows its progress until it has caught up (see {@link ReplayJob}). */
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
            final CassandraOutput output = cassandra ? cassandraOutput(job, tree, jobOptions.replay()) : null;
            checkLogs(job, jobOptions);
            return withClient(client -> {
                checkReplayTargets(client, job, jobOptions.replay());
                final JobConfig made = makeWay(client, config);
                final Job submitted = around.apply(() -> job instanceof KeyedJob<?> keyed
                        ? Jobs.submit(client.getJet(), keyed, jobOptions, output, made)
                        : Jobs.submit(client.getJet(), (WindowedJob<?>) job, jobOptions, output, made));
                final PrintWriter out = spec.commandLine().getOut();
                out.println(submittedLine(job, submitted, jobOptions) + origin + ", reading " + logDirectories(job, jobOptions) + note
                        + restoredNote(made));
                out.println(outputsLine(job, jobOptions.replay()) + (output == null ? "" : "; exactly-once into Cassandra tables "
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
            final LogSize logs = LogSize.of(job, jobOptions);
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

    @Command(name = "submit", mixinStandardHelpOptions = true,
            description = {"Submit a job (exactly-once) to the cluster: one by NAME — a built-in job, or one a jar on the class "
                    + "path declares, as the examples do ('job submit' alone lists them all) — or your own with --jar and --class "
                    + "(a class implementing io.streamgrid.jobs.keyed.StreamGridJob; the members need jobs.allow-code-upload: true)."})
    static final class Submit extends Submission {
        @Option(names = "--from-checkpoint", paramLabel = "ID|last|none",
                description = {"Replace the job of the same name still in the cluster (running or suspended; e.g. to run "
                        + "new code): 'last' or a checkpoint ID it keeps ('streamgrid job checkpoints NAME') carries its state "
                        + "over — the old job is suspended, the checkpoint copied and checked, the old job cancelled, and the "
                        + "new one restores the copy and goes on from there; 'none' cancels the old job and starts over from "
                        + "the beginning of the logs. Without it a job of the same name still in the cluster is refused."})
        String fromCheckpoint;

        private FromCheckpoint choice;

        @Override
        public Integer call() {
            choice = fromCheckpoint == null ? null : FromCheckpoint.parse(fromCheckpoint);
            return submit(null);
        }

        @Override
        JobConfig makeWay(final HazelcastInstance client, final JobConfig config) {
            if (choice == null) {
                FromCheckpoint.refuseIfPresent(client, config.getName());
                return config;
            }
            return choice.prepare(client, config, spec.commandLine().getOut());
        }
    }

    @Command(name = "replay", mixinStandardHelpOptions = true,
            description = {"Run a job again over its logs' history, beside the live one (Kappa): the same job (a built-in "
                    + "NAME, or --jar and --class) into maps of its own (<map>.<SUFFIX>), Cassandra tables of its own "
                    + "(<table>_<SUFFIX>) and as Jet job <job>.<SUFFIX>. From the start it reproduces the live results "
                    + "exactly; it never writes the live maps or tables and appends nothing to the logs. The command shows "
                    + "its progress (share read, events/s, time left) until it has caught up with the logs, then returns; "
                    + "the replay goes on following the logs like the live job: cancel it ('streamgrid job cancel "
                    + "<job>.<SUFFIX>') when done."})
    static final class ReplayJob extends Submission {
        @Option(names = "--into", required = true, paramLabel = "SUFFIX",
                description = "The replay's name suffix: a lower-case letter, then lower-case letters, digits or '_' (at most 24).")
        String into;

        @Option(names = "--from", paramLabel = "TIME",
                description = "Skip events before this event time: an ISO-8601 instant (2026-12-01T10:00:00Z) or epoch "
                        + "milliseconds. Default: every event from the start.")
        String from;

        @Option(names = "--no-wait", description = "Return once the replay is submitted, without following its progress.")
        boolean noWait;

        @Override
        public Integer call() {
            followReplay = !noWait;
            final Replay replay;
            try {
                replay = from == null ? Replay.into(into) : Replay.into(into).from(eventTime(from));
            } catch (final IllegalArgumentException e) {
                throw new ConfigException("--into: " + e.getMessage(), e);
            }
            return submit(replay);
        }

        private static long eventTime(final String text) {
            if (text.matches("-?\\d+")) {
                return Long.parseLong(text);
            }
            try {
                return Instant.parse(text).toEpochMilli();
            } catch (final DateTimeParseException e) {
                throw new ConfigException("--from " + text + " is neither an ISO-8601 instant (e.g. 2026-12-01T10:00:00Z) "
                        + "nor epoch milliseconds");
            }
        }
    }

    /** "submitted NAME (id …), exactly-once, snapshots every …" or, for a replay, "replaying NAME as NAME.SUFFIX …". */
    private static String submittedLine(final JobDefinition job, final Job submitted, final JobOptions options) {
        final Replay replay = options.replay();
        return (replay == null ? "submitted " + job.name() : "replaying " + job.name() + " " + replay.describe() + " as "
                + submitted.getName()) + " (id " + submitted.getIdString() + "), exactly-once, snapshots every "
                + options.snapshotIntervalMs() + " ms";
    }

    /** "; its state restored from the checkpoint copied" when the job starts from one ({@code --from-checkpoint}). */
    private static String restoredNote(final JobConfig submitted) {
        return submitted.getInitialSnapshotName() == null ? "" : "; its state restored from the checkpoint copied";
    }

    /** Where the job writes: its state maps and side maps (a replay's: suffixed). */
    private static String outputsLine(final JobDefinition job, final Replay replay) {
        final java.util.function.UnaryOperator<String> named = replay == null ? map -> map : replay::mapName;
        return "writes " + job.stateMaps().stream().map(named).toList() + ", late events in " + named.apply(job.lateMap())
                + ", rejected records in " + named.apply(job.rejectedMap())
                + (job instanceof KeyedJob<?> keyed && !keyed.lookups().isEmpty() ? ", unmatched lookups in "
                + named.apply(keyed.unmatchedMap()) : "");
    }

    /**
     * Refuses a replay whose Jet job is already there (not finished) or one of whose maps already
     * holds entries: a replay writes fresh maps, and stale keys of an earlier one would stay.
     */
    static void checkReplayTargets(final HazelcastInstance client, final JobDefinition job, final Replay replay) {
        if (replay == null) {
            return;
        }
        final Job existing = client.getJet().getJob(replay.jobName(job.name()));
        if (existing != null && !existing.getStatus().isTerminal()) {
            throw new ConfigException("a replay named " + existing.getName() + " is already " + existing.getStatus()
                    + ": choose another --into, or cancel it first ('streamgrid job cancel " + existing.getName() + "')");
        }
        final List<String> maps = new ArrayList<>(job.stateMaps());
        maps.add(job.lateMap());
        maps.add(job.rejectedMap());
        if (job instanceof KeyedJob<?> keyed) {
            maps.add(keyed.unmatchedMap());
        }
        for (final String map : maps) {
            final String target = replay.mapName(map);
            final int size = client.getMap(target).size();
            if (size > 0) {
                throw new ConfigException("map " + target + " already holds " + size + " entries (an earlier replay into "
                        + replay.into() + "?): a replay writes fresh maps; choose another --into or destroy that map");
            }
        }
    }

    /**
     * Refuses a job one of whose schema logs is missing or holds an incompatible version, before
     * anything reaches the cluster.
     */
    static void checkLogs(final JobDefinition job, final JobOptions options) {
        if (options.kafka() != null) {
            for (final EventSchema schema : job.schemas()) {
                try (EventLog log = options.kafka().open(schema, schema.name())) {
                    // exists, and holds a compatible schema
                } catch (final IllegalStateException | IllegalArgumentException e) {
                    throw new ConfigException("job " + job.name() + " reads schema " + schema.name() + ": " + e.getMessage(), e);
                }
            }
            return;
        }
        for (final EventSchema schema : job.schemas()) {
            final Path dir = logDirectory(options, schema);
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

    /**
     * The records in the job's logs now, control records included, and their partitions: Chronicle
     * counts from the queues' indexes; a Kafka topic's count is its partitions' end offsets (read
     * committed), which include records retention has deleted — a replay of a trimmed topic then
     * shows progress from above 0, and still says when it has caught up.
     */
    private record LogSize(long records, int partitions) {
        static LogSize of(final JobDefinition job, final JobOptions options) {
            long records = 0;
            int partitions = 0;
            for (final EventSchema schema : job.schemas()) {
                try (EventLog log = options.logs(job.schemas().get(0).name()).open(schema, schema.name())) {
                    if (log instanceof SchemaLog chronicle) {
                        records += chronicle.records();
                    } else {
                        for (int p = 0; p < log.partitions(); p++) {
                            records += log.lastIndexNow(p) + 1;
                        }
                    }
                    partitions += log.partitions();
                }
            }
            return new LogSize(records, partitions);
        }
    }

    /** Where {@code schema}'s log is under the job options' ingest directory. */
    private static Path logDirectory(final JobOptions options, final EventSchema schema) {
        return SchemaLog.directoryOf(options.ingestDir().toAbsolutePath(), schema.name());
    }

    /** Where the job's schema logs are, for the submit line. */
    private static String logDirectories(final JobDefinition job, final JobOptions options) {
        if (options.kafka() != null) {
            return job.schemas().stream().map(schema -> "topic " + options.kafka().topic(schema.name()))
                    .collect(java.util.stream.Collectors.joining(", ")) + " of Kafka " + options.kafka().bootstrapServers();
        }
        return job.schemas().stream().map(schema -> logDirectory(options, schema).toString())
                .collect(java.util.stream.Collectors.joining(", "));
    }

    /**
     * Creates (or checks) the job's tables — a replay's own tables when {@code replay} is given —
     * then describes where the live job's results go (a replay's submission renames them).
     */
    static CassandraOutput cassandraOutput(final JobDefinition job, final ConfigTree tree, final Replay replay) {
        final CassandraTarget target = JobCatalog.cassandraTarget(tree);
        final CassandraOutput output = job.cassandraOutput(target).orElseThrow(() -> new ConfigException("--cassandra: job "
                + job.name() + " declares no Cassandra tables"));
        try (CqlSession session = target.connect()) {
            for (final CassandraOutput.Binding binding : (replay == null ? output : replay.output(output)).bindings()) {
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
    static final class ListJobs extends ConnectedCommand implements Callable<Integer> {
        @Override
        public Integer call() {
            return withClient(client -> {
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
    abstract static class OnNamedJob extends ConnectedCommand implements Callable<Integer> {
        @Parameters(paramLabel = "NAME", description = "The job.")
        String name;

        /** Acts on {@code job} (through {@code client} where it needs more); returns what to print. @throws ConfigException when the job is not in a state for it */
        abstract String act(Job job, HazelcastInstance client);

        @Override
        public Integer call() {
            return withClient(client -> {
                final Job job = client.getJet().getJob(name);
                if (job == null) {
                    throw new ConfigException("no job named '" + name + "' in the cluster: see 'streamgrid job list'");
                }
                spec.commandLine().getOut().println(act(job, client));
                return 0;
            });
        }
    }

    @Command(name = "cancel", mixinStandardHelpOptions = true,
            description = "Cancel a job: it stops and its snapshots are deleted (its maps keep what it wrote).")
    static final class Cancel extends OnNamedJob {
        @Override
        String act(final Job job, final HazelcastInstance client) {
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
        String act(final Job job, final HazelcastInstance client) {
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
        String act(final Job job, final HazelcastInstance client) {
            final JobStatus status = job.getStatus();
            if (status != JobStatus.SUSPENDED) {
                throw new ConfigException("job '" + name + "' is " + status + ", not SUSPENDED: only a suspended job can be resumed");
            }
            final String cause = suspensionCause(job);
            job.resume();
            return "resumed " + name + " (id " + job.getIdString() + ") from its last snapshot; it was suspended because: " + cause;
        }
    }

    @Command(name = "checkpoints", mixinStandardHelpOptions = true,
            description = {"List a job's checkpoints (Jet snapshots): the last completed one, which a restart of the job "
                    + "or of the whole cluster resumes from; the one before it while it is kept (until the next completes); "
                    + "one in progress; the last failure. Durable (in Cassandra, surviving the whole cluster) when the "
                    + "members' persistence.jobs is true (the members say), else in member memory only. 'streamgrid job submit "
                    + "--from-checkpoint ID' starts a new submission of the job from one of them."})
    static final class Checkpoints extends OnNamedJob {
        @Override
        String act(final Job job, final HazelcastInstance client) {
            final JobExecutionRecord record = client.<Long, JobExecutionRecord>getMap(JobRepository.JOB_EXECUTION_RECORDS_MAP_NAME).get(job.getId());
            final StringBuilder out = new StringBuilder("job " + name + " (id " + job.getIdString() + "), " + job.getStatus()
                    + ", snapshots every " + job.getConfig().getSnapshotIntervalMillis() + " ms; checkpoints " + durability(client));
            if (record == null || record.snapshotId() < 0) {
                out.append("\n  no checkpoint completed yet: a restart starts the job from the beginning of its logs");
            } else {
                final JobExecutionRecord.SnapshotStats last = record.snapshotStats();
                out.append(String.format(Locale.ROOT, "%n  %-6s %-26s %9s %14s  %s", "ID", "COMPLETED", "TOOK", "BYTES", ""));
                out.append(String.format(Locale.ROOT, "%n  %-6d %-26s %9s %,14d  the last completed: a restart resumes from it",
                        record.snapshotId(), Instant.ofEpochMilli(last.endTime()), last.duration() + " ms", last.numBytes()));
                FromCheckpoint.previous(client, job, record).ifPresent(previous -> out.append(String.format(Locale.ROOT,
                        "%n  %-6d %-26s %9s %,14d  the one before, kept until the next completes", previous.snapshotId(),
                        "started " + Instant.ofEpochMilli(previous.creationTime()), "", previous.numBytes())));
            }
            if (record != null && record.ongoingSnapshotId() > record.snapshotId()) {
                out.append("\n  " + record.ongoingSnapshotId() + " in progress");
            }
            if (record != null && record.lastSnapshotFailure() != null) {
                out.append("\n  the last checkpoint that failed: " + record.lastSnapshotFailure().lines().findFirst().orElse(""));
            }
            return out.toString();
        }

        /** Where the cluster keeps checkpoints, as its members say (their persistence.jobs), not this command's configuration. */
        private static String durability(final HazelcastInstance client) {
            final Set<String> said = new TreeSet<>();
            client.getCluster().getMembers().forEach(m -> said.add(String.valueOf(m.getAttribute(HazelcastConfigFactory.DURABLE_JOBS_ATTRIBUTE))));
            if (said.equals(Set.of("true"))) {
                return "durable: in Cassandra (the members' persistence.jobs)";
            }
            if (said.equals(Set.of("false"))) {
                return "in member memory only (the members' persistence.jobs is false)";
            }
            return said.contains("null") ? "of unknown durability (members that do not say: not StreamGrid members?)"
                    : "durable on some members only (their persistence.jobs differs: give every member one configuration)";
        }
    }
}
