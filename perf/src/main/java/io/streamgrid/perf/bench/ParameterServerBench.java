package io.streamgrid.perf.bench;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import io.streamgrid.examples.paramserver.LabelledExample;
import io.streamgrid.examples.paramserver.LogisticRegression;
import io.streamgrid.examples.paramserver.OfflineSgd;
import io.streamgrid.examples.paramserver.ParameterModel;
import io.streamgrid.examples.paramserver.ParameterServer;
import io.streamgrid.examples.paramserver.ShardServerJob;
import io.streamgrid.examples.paramserver.ShardValue;
import io.streamgrid.examples.paramserver.Staleness;
import io.streamgrid.examples.paramserver.SyntheticExamples;
import io.streamgrid.examples.paramserver.TrainingEvents;
import io.streamgrid.examples.paramserver.WorkerJob;
import io.streamgrid.examples.paramserver.WorkerProgress;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.perf.BenchContext;
import io.streamgrid.perf.Benchmark;
import io.streamgrid.perf.report.BenchResult;
import io.streamgrid.perf.report.Environment;
import io.streamgrid.perf.report.Measurement;
import io.streamgrid.perf.report.Ratio;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The asynchronous parameter server (examples' {@code paramserver}: workers and shards as keyed jobs,
 * decision record 0015) on one embedded member: examples and updates applied per second against the
 * number of workers, the staleness of the updates, and the held-out loss — against offline SGD, one
 * thread over the same examples in the same JVM (what distribution costs or gains; its loss is the
 * reference for the asynchronous runs'). Then the held-out loss as training goes, plain against
 * staleness-aware updates, with four workers on a paced stream (a table in the notes and a chart,
 * {@code perf/results/parameter-server-loss.png}).
 *
 * <p>Design: throughput runs read a backlog (the examples written before the jobs start, then the end
 * of the stream): workers run as fast as they can, so the staleness measured is what a backlog makes.
 * The server's job is running before the workers' is submitted, and a run is timed from that
 * submission until every example was learnt and every update pushed was applied (the maps polled
 * every 10 ms). Each run has its own model, maps and logs.
 */
public final class ParameterServerBench implements Benchmark {
    static final long START_MS = 1_700_000_000_000L;
    static final int FEATURES = 4_096;
    static final int SHARDS = 16;
    static final int ACTIVE = 10;
    static final double RATE = 0.05;
    static final int FETCH_EVERY = 8;
    static final int PUSH_EVERY = 8;
    static final int PARTITIONS = 2;
    private static final int[] WORKERS = {1, 2, 4};
    static final int HELD_OUT = 5_000;

    @Override
    public String name() {
        return "parameter-server";
    }

    @Override
    public String title() {
        return "asynchronous parameter server (Downpour SGD, staleness-aware): examples and updates/s against workers, staleness, "
                + "held-out loss; against one-thread offline SGD over the same examples";
    }

    @Override
    public BenchResult run(final BenchContext context) throws Exception {
        final int examplesPerRun = context.pick(200_000, 800_000);
        final int runs = context.pick(1, 3);
        final List<Measurement> measurements = new ArrayList<>();
        final List<Ratio> ratios = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        int runNumber = 0;
        try (EmbeddedGrid grid = EmbeddedGrid.start(context.workDir().resolve("member"))) {
            final HazelcastInstance member = grid.member();
            for (final int workers : WORKERS) {
                final SyntheticExamples stream = new SyntheticExamples(workers, FEATURES, ACTIVE, workers, START_MS);
                final List<LabelledExample> examples = stream.next(examplesPerRun);
                final List<LabelledExample> heldOut = stream.next(HELD_OUT);
                final double[] offline = offlineExamplesPerSecond(examples, runs);
                final double offlineLoss = LogisticRegression.logLoss(OfflineSgd.weights(FEATURES, RATE, examples), heldOut);
                run(context, member, workers, examples, heldOut, Staleness.IGNORED, ++runNumber); // warm-up, not counted
                final double[] examplesPerSecond = new double[runs];
                final double[] updatesPerSecond = new double[runs];
                Run last = null;
                for (int r = 0; r < runs; r++) {
                    last = run(context, member, workers, examples, heldOut, Staleness.IGNORED, ++runNumber);
                    examplesPerSecond[r] = examplesPerRun * 1e9 / last.nanos();
                    updatesPerSecond[r] = last.updates() * 1e9 / last.nanos();
                }
                run(context, member, workers, examples, heldOut, Staleness.IGNORED, -(++runNumber)); // plain Jet's warm-up
                final double[] jetExamplesPerSecond = new double[runs];
                Run lastJet = null;
                for (int r = 0; r < runs; r++) {
                    lastJet = run(context, member, workers, examples, heldOut, Staleness.IGNORED, -(++runNumber));
                    jetExamplesPerSecond[r] = examplesPerRun * 1e9 / lastJet.nanos();
                }
                final String subject = workers + " worker" + (workers == 1 ? "" : "s");
                final Measurement ours = Measurement.of("StreamGrid parameter server, " + subject, "ours", "examples/s",
                        examplesPerSecond);
                final Measurement reference = Measurement.of("offline SGD, one thread (" + subject + "' examples)", "reference",
                        "examples/s", offline);
                final Measurement jet = Measurement.of("plain Jet, IMap of parameters, " + subject, "reference", "examples/s",
                        jetExamplesPerSecond);
                measurements.add(ours);
                measurements.add(Measurement.of("StreamGrid parameter server, " + subject, "ours", "updates applied/s", updatesPerSecond));
                measurements.add(reference);
                measurements.add(jet);
                ratios.add(Ratio.of("StreamGrid / plain Jet with an IMap, examples/s, " + subject, ours.median(), jet.median(),
                        "above 1: we are faster (and exactly-once, which the plain Jet version is not)"));
                ratios.add(Ratio.of("parameter server / offline SGD, examples/s, " + subject, ours.median(), reference.median(),
                        "below 1: what the grid's exactly-once updates cost against a loop in one thread"));
                notes.add(String.format(Locale.ROOT, "plain Jet, %s (last run): %,d updates, staleness p50 %s, p99 %s; held-out "
                                + "loss %.4f", subject, lastJet.updates(), percentile(lastJet.staleness(), 0.50),
                        percentile(lastJet.staleness(), 0.99), lastJet.loss()));
                notes.add(String.format(Locale.ROOT, "%s (last run): %,d updates, staleness p50 %s, p99 %s, max %s; held-out loss "
                                + "%.4f against offline SGD's %.4f", subject, last.updates(), percentile(last.staleness(), 0.50),
                        percentile(last.staleness(), 0.99), percentile(last.staleness(), 1.0), last.loss(), offlineLoss));
                context.progress(notes.get(notes.size() - 1));
            }
            notes.addAll(TrainingLossCurve.measure(context, member, ++runNumber));
        }
        context.emptyWorkDir();
        return new BenchResult(name(), title(), String.format(Locale.ROOT, "%,d synthetic labelled examples per run (logistic model of "
                        + "%,d hashed binary features, %d active per example plus the bias, labels drawn from a hidden model; "
                        + "seeded by the worker count), %,d held out; %d shards of %d features; learning rate %.2f, plain asynchronous "
                        + "updates; each worker fetches every %d and pushes every %d steps. One embedded member (Jet, 2 cooperative "
                        + "threads), the example log of %d partitions read as a backlog, local parallelism 2, exactly-once with "
                        + "snapshots every second. The server's job runs before the workers' starts; a run is timed from the workers' "
                        + "submission until every example was learnt and every update applied. Per worker count one warm-up run, then %d run(s); offline SGD timed %d time(s) "
                        + "in the same JVM.", examplesPerRun, FEATURES, ACTIVE, HELD_OUT, SHARDS, FEATURES / SHARDS, RATE,
                FETCH_EVERY, PUSH_EVERY, PARTITIONS, runs, runs),
                context.pick("quick", "full"), Instant.now().toString(), Environment.current(), measurements, List.of(), ratios,
                List.of(), notes);
    }

    /** What one run measured. */
    private record Run(long nanos, long updates, long[] staleness, double loss) {
    }

    private static Run run(final BenchContext context, final HazelcastInstance member, final int workers,
                           final List<LabelledExample> examples, final List<LabelledExample> heldOut, final Staleness staleness,
                           final int number) throws InterruptedException {
        final boolean plainJet = number < 0;
        final ParameterModel model = new ParameterModel("bench-" + Math.abs(number), FEATURES, SHARDS, workers, RATE, staleness,
                FETCH_EVERY, PUSH_EVERY);
        final Path ingest = context.workDir().resolve("run-" + Math.abs(number));
        try (SchemaLog log = SchemaLog.open(SchemaLog.directoryOf(ingest, TrainingEvents.EXAMPLE.name()), TrainingEvents.EXAMPLE,
                PARTITIONS);
             SchemaLog updates = SchemaLog.open(SchemaLog.directoryOf(ingest, TrainingEvents.UPDATE.name()), TrainingEvents.UPDATE,
                     PARTITIONS)) {
            SyntheticExamples.append(log, examples);
            log.appendEndOfStream();
        }
        if (plainJet) {
            return runPlainJet(member, model, SchemaLog.directoryOf(ingest, TrainingEvents.EXAMPLE.name()), examples, heldOut);
        }
        final JobOptions options = JobOptions.of(ingest).withLocalParallelism(2);
        final Map<Long, WorkerProgress> progress = member.getMap(model.workersMap());
        final Map<Long, ShardValue> shards = member.getMap(model.shardsMap());
        final Job serverJob = Jobs.submit(member.getJet(), new ShardServerJob(model).job(), options);
        Job workerJob = null;
        try {
            awaitRunning(serverJob);
            final long start = System.nanoTime();
            workerJob = Jobs.submit(member.getJet(), new WorkerJob(model).job(), options);
            while (true) {
                final long steps = progress.values().stream().mapToLong(WorkerProgress::steps).sum();
                final long pushed = progress.values().stream().mapToLong(WorkerProgress::updatesPushed).sum();
                if (steps == examples.size() && pushed == shards.values().stream().mapToLong(ShardValue::version).sum()) {
                    break;
                }
                if (System.nanoTime() - start > 600_000_000_000L) {
                    throw new IllegalStateException("run " + number + " did not finish in 10 minutes: " + steps + " of "
                            + examples.size() + " examples learnt, " + pushed + " updates pushed");
                }
                Thread.sleep(10);
            }
            final long nanos = System.nanoTime() - start;
            final Map<Long, ShardValue> result = Map.copyOf(shards);
            return new Run(nanos, result.values().stream().mapToLong(ShardValue::version).sum(),
                    ParameterServer.stalenessCounts(result),
                    LogisticRegression.logLoss(ParameterServer.weights(model, result), heldOut));
        } finally {
            stop(member, model, workerJob, serverJob);
        }
    }

    private static Run runPlainJet(final HazelcastInstance member, final ParameterModel model, final Path exampleLog,
                                   final List<LabelledExample> examples, final List<LabelledExample> heldOut)
            throws InterruptedException {
        final String mapName = PlainJetParameterServer.shardsMap(member, model);
        final Map<Long, ShardValue> shards = member.getMap(mapName);
        final long start = System.nanoTime();
        final Job job = PlainJetParameterServer.submit(member, model, exampleLog, mapName, 2);
        try {
            while (PlainJetParameterServer.STEPS.sum() < examples.size()
                    || PlainJetParameterServer.PUSHED.sum() != shards.values().stream().mapToLong(ShardValue::version).sum()) {
                if (System.nanoTime() - start > 600_000_000_000L) {
                    throw new IllegalStateException("plain Jet's run did not finish in 10 minutes: " + PlainJetParameterServer.STEPS.sum()
                            + " of " + examples.size() + " examples learnt");
                }
                Thread.sleep(10);
            }
            final long nanos = System.nanoTime() - start;
            final Map<Long, ShardValue> result = Map.copyOf(shards);
            return new Run(nanos, result.values().stream().mapToLong(ShardValue::version).sum(), ParameterServer.stalenessCounts(result),
                    LogisticRegression.logLoss(ParameterServer.weights(model, result), heldOut));
        } finally {
            cancel(job);
            member.getMap(mapName).destroy();
        }
    }

    /** Cancels a run's jobs ({@code workerJob} may be null: not submitted) and drops its maps. */
    static void stop(final HazelcastInstance member, final ParameterModel model, final Job workerJob, final Job serverJob) {
        if (workerJob != null) {
            cancel(workerJob);
        }
        cancel(serverJob);
        member.getMap(model.workersMap()).destroy();
        member.getMap(model.shardsMap()).destroy();
    }

    static void awaitRunning(final Job job) throws InterruptedException {
        final long deadline = System.nanoTime() + 60_000_000_000L;
        while (job.getStatus() != com.hazelcast.jet.core.JobStatus.RUNNING) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("job " + job.getName() + " not running after a minute: " + job.getStatus());
            }
            Thread.sleep(10);
        }
    }

    static void cancel(final Job job) {
        try {
            job.cancel();
            job.join();
        } catch (final RuntimeException cancelled) {
            // a cancelled job completes exceptionally: that is how it ends here
        }
    }

    /**
     * The staleness at or below which {@code fraction} of the updates were, from the buckets
     * ({@link ShardValue#bucketOf}): exact below 32, else the bucket's range of a power of two.
     */
    static String percentile(final long[] counts, final double fraction) {
        final int bucket = ParameterServer.stalenessBucketAt(counts, fraction);
        if (bucket < 0) {
            return "-";
        }
        final long low = ShardValue.lowestStalenessOf(bucket);
        return bucket < 32 ? String.valueOf(low) : String.format(Locale.ROOT, "%,d–%,d", low, 2 * low - 1);
    }

    private static double[] offlineExamplesPerSecond(final List<LabelledExample> examples, final int runs) {
        OfflineSgd.weights(FEATURES, RATE, examples); // warm-up
        final double[] rates = new double[runs];
        for (int r = 0; r < runs; r++) {
            final long start = System.nanoTime();
            OfflineSgd.weights(FEATURES, RATE, examples);
            rates[r] = examples.size() * 1e9 / (System.nanoTime() - start);
        }
        return rates;
    }

}
