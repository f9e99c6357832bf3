package io.streamgrid.perf.bench.nexmark;

import com.hazelcast.jet.JetService;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.config.JobConfig;
import com.hazelcast.jet.config.ProcessingGuarantee;
import com.hazelcast.jet.pipeline.Pipeline;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.pipeline.JobDefinition;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.nexmark.NexmarkQuery;
import io.streamgrid.nexmark.ResultFingerprint;
import io.streamgrid.perf.BenchContext;
import io.streamgrid.perf.Benchmark;
import io.streamgrid.perf.bench.EmbeddedGrid;
import io.streamgrid.perf.report.BenchResult;
import io.streamgrid.perf.report.Environment;
import io.streamgrid.perf.report.GoalCheck;
import io.streamgrid.perf.report.LatencyProfile;
import io.streamgrid.perf.report.Measurement;
import io.streamgrid.perf.report.Ratio;

import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * NEXMark (issue 49): the field's benchmark — an auction site's persons, auctions and bids and its
 * standard queries — run by StreamGrid, Apache Flink and plain Hazelcast Jet over the same events,
 * each with exactly-once snapshots every second, results checked equal.
 *
 * <p>Design: the events are generated once by the shared generator ({@code perf/nexmark}) into the
 * three schema logs (2 partitions each, ended by an end-of-stream record) for StreamGrid and Jet;
 * Flink's runner (a child JVM) generates the same events into memory before its job starts. Each
 * engine drains the whole input; a run lasts from the job's start (StreamGrid, Jet: submission;
 * Flink: its first event read) to its last result row, and its CPU is its process's over that
 * span — events per CPU second is the per-core figure. Every engine folds its rows into an
 * order-insensitive fingerprint ({@link ResultFingerprint}); a query whose engines disagree is
 * reported as such and its goals fail. Events counted: every NEXMark event of the input (persons,
 * auctions and bids, as the published figures count them), whichever streams the query reads.
 * After each query's throughput runs, its result latency at a fixed rate ({@link NexmarkLatency}).
 * Last, StreamGrid's queries once more with the same events in Kafka ({@link NexmarkOverKafka}).
 */
public final class NexmarkBench implements Benchmark {
    static final long SNAPSHOT_INTERVAL_MS = 1_000;
    /** How long a run's results must stay unchanged before it is taken as done without matching Flink's. */
    private static final long QUIET_MS = 15_000;
    static final AtomicInteger JOB_IDS = new AtomicInteger();

    @Override
    public String name() {
        return "nexmark";
    }

    @Override
    public String title() {
        return "NEXMark: StreamGrid vs Apache Flink (MiniCluster) vs plain Jet, exactly-once, same events, results checked equal";
    }

    /** One engine's runs of one query. */
    private record Runs(double[] eventsPerSecond, double[] eventsPerCpuSecond, ResultFingerprint result) {
    }

    @Override
    public BenchResult run(final BenchContext context) throws Exception {
        final NexmarkSetup setup = NexmarkSetup.DEFAULT;
        final long events = context.pick(5_000_000L, 10_000_000L);
        final int runs = context.pick(1, 3);
        final List<NexmarkQuery> queries = context.query().map(q -> List.of(NexmarkQuery.named(q))).orElse(List.of(NexmarkQuery.values()));
        final Path ingest = context.workDir().resolve("ingest");
        final InputLogs input = InputLogs.chronicle(ingest);
        context.progress("writing " + events + " NEXMark events into the schema logs under " + ingest);
        NexmarkLogs.write(input, setup.generator(), events, setup.parallelism(), context::progress);

        final long pacedSeconds = context.pick(20L, 30L);
        final List<Measurement> measurements = new ArrayList<>();
        final List<LatencyProfile> latencies = new ArrayList<>();
        final List<Ratio> ratios = new ArrayList<>();
        final List<GoalCheck> goals = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        final Map<NexmarkQuery, NexmarkOverKafka.Baseline> overKafka = new LinkedHashMap<>();
        try (EmbeddedGrid grid = EmbeddedGrid.start(context.workDir().resolve("member"))) {
            final JetService jet = grid.member().getJet();
            for (final NexmarkQuery query : queries) {
                final Optional<List<JobDefinition>> ours = StreamGridQueries.jobs(query);
                final Optional<Pipeline> plainJet = JetQueries.pipeline(query, ingest, setup);
                final Runs flink = flink(context, query, events, setup, 1, runs, FlinkRun.StateBackend.HASHMAP);
                // RocksDB only where there is state to keep (on Q0–Q2 it would measure the same job again),
                // and once: its runs take minutes, most of it in RocksDB's native code, which no JIT warms.
                final Optional<Runs> flinkRocksDb = query.keepsState()
                        ? Optional.of(flink(context, query, events, setup, 0, 1, FlinkRun.StateBackend.ROCKSDB)) : Optional.empty();
                final Optional<Runs> streamGrid = ours.map(jobs -> inJvm(context, query, "StreamGrid", runs, flink.result(),
                        ResultRows.STREAMGRID, events, jet, j -> submitAll(j, jobs, input, setup)));
                final Optional<Runs> jetRuns = plainJet.map(pipeline -> inJvm(context, query, "plain Jet", runs, flink.result(),
                        ResultRows.PLAIN_JET, events, jet, j -> submitJet(j, pipeline, query)));
                report(query, flink, flinkRocksDb, streamGrid, jetRuns, measurements, ratios, goals, notes);
                streamGrid.ifPresent(sg -> overKafka.put(query, new NexmarkOverKafka.Baseline(flink.result(),
                        median(sg.eventsPerSecond()), median(flink.eventsPerCpuSecond()))));
                if (ours.isPresent() && query.latencyMeasured()) {
                    final NexmarkLatency.Outcome latency = NexmarkLatency.measure(context, query, ours.get(), jet, pacedSeconds);
                    latencies.addAll(latency.profiles());
                    goals.add(latency.goal());
                    notes.add(latency.note());
                }
            }
            NexmarkOverKafka.run(context, jet, events, setup, overKafka, measurements, ratios, goals, notes);
        }
        return new BenchResult(name(), title(), setup(events, runs, setup, pacedSeconds), context.pick("quick", "full"),
                Instant.now().toString(), Environment.current(), measurements, latencies, ratios, goals, notes);
    }

    private static Runs flink(final BenchContext context, final NexmarkQuery query, final long events, final NexmarkSetup setup,
                              final int warmUps, final int runs, final FlinkRun.StateBackend backend) throws InterruptedException {
        // Warm-up runs first, not counted: every engine is measured with its JIT warm (StreamGrid's and
        // Jet's JVM stays up from query to query; Flink's is a new one per query).
        final List<FlinkRun> all = FlinkRun.run(query, events, setup, SNAPSHOT_INTERVAL_MS, backend, warmUps + runs,
                context.workDir().resolve("flink-" + query + "-" + backend.name().toLowerCase(Locale.ROOT) + ".log"), context::progress);
        final List<FlinkRun> done = all.subList(warmUps, all.size());
        final double[] rate = new double[runs];
        final double[] perCore = new double[runs];
        for (int r = 0; r < runs; r++) {
            final FlinkRun run = done.get(r);
            rate[r] = run.eventsPerSecond();
            perCore[r] = run.eventsPerCpuSecond();
            context.progress(String.format(Locale.ROOT, "%s %s run %d: %,.0f events/s, %,.0f per CPU second; %s", query,
                    backend.engine(), r + 1, rate[r], perCore[r], run.result()));
        }
        if (all.stream().anyMatch(run -> !run.result().equals(all.get(0).result()))) {
            throw new IllegalStateException(backend.engine() + "'s runs of " + query + " (the warm-up's too) computed different results: "
                    + all);
        }
        return new Runs(rate, perCore, done.get(0).result());
    }

    /** {@code runs} runs of an engine on the embedded member ({@link InJvmRun}), each checked against Flink's result. */
    private static Runs inJvm(final BenchContext context, final NexmarkQuery query, final String engine, final int runs,
                              final ResultFingerprint expected, final ResultRows rows, final long events, final JetService jet,
                              final Function<JetService, Runnable> submit) {
        final double[] rate = new double[runs];
        final double[] perCore = new double[runs];
        ResultFingerprint result = null;
        final InJvmRun warmUp = InJvmRun.run(jet, rows, expected, submit, QUIET_MS);
        context.progress(String.format(Locale.ROOT, "%s %s warm-up run (not counted): %,.0f events/s", query, engine,
                warmUp.eventsPerSecond(events)));
        for (int r = 0; r < runs; r++) {
            final InJvmRun run = InJvmRun.run(jet, rows, expected, submit, QUIET_MS);
            result = run.result();
            rate[r] = run.eventsPerSecond(events);
            perCore[r] = run.eventsPerCpuSecond(events);
            context.progress(String.format(Locale.ROOT, "%s %s run %d: %,.0f events/s, %,.0f per CPU second; %s%s", query, engine, r + 1,
                    rate[r], perCore[r], result, result.equals(expected) ? " (equals Flink's)" : " — DIFFERS from Flink's " + expected));
        }
        return new Runs(rate, perCore, result);
    }

    /**
     * Submits StreamGrid's jobs of a query; returns what stops them. The logs they emit into (a
     * re-keyed copy, a first stage's results) start empty, so each run derives them afresh; the
     * end of the input travels down through them as in Flink (each log's writers end it).
     *
     * <p>Each such log is created with its emitting job recorded before any job starts: a reader
     * takes a log's clock from its writers from its start only when it knows then that a job writes
     * the log. Without it, when the jobs raced at start, Q8's join lost one early auction copy to its
     * late map in 3 of 32 runs (NexmarkQueriesTest failed so); with it, 0 of 30.
     */
    static Runnable submitAll(final JetService jet, final List<JobDefinition> jobs, final InputLogs input, final NexmarkSetup setup) {
        for (final JobDefinition job : jobs) {
            for (final EventSchema derived : job.emits()) {
                try (EventLog created = input.fresh(derived, setup.parallelism())) {
                    created.claimEmitter(job.name());
                }
            }
        }
        final JobOptions options = input.jobOptions(SNAPSHOT_INTERVAL_MS, setup.parallelism());
        final List<Job> started = new ArrayList<>();
        for (final JobDefinition job : jobs) {
            started.add(Jobs.submit(jet, job, options, null, options.jobConfig(job.name() + "-" + JOB_IDS.incrementAndGet())));
        }
        return () -> started.forEach(InJvmRun::cancel);
    }

    /** Submits plain Jet's pipeline of {@code query}; returns what stops it. */
    static Runnable submitJet(final JetService jet, final Pipeline pipeline, final NexmarkQuery query) {
        final Job job = jet.newJob(pipeline, config("nexmark-jet-" + query));
        return () -> InJvmRun.cancel(job);
    }

    static JobConfig config(final String name) {
        return new JobConfig().setName(name + "-" + JOB_IDS.incrementAndGet()).setProcessingGuarantee(ProcessingGuarantee.EXACTLY_ONCE)
                .setSnapshotIntervalMillis(SNAPSHOT_INTERVAL_MS);
    }

    /**
     * The query's figures, ratios and goals. The goals are checked against Flink on the HashMap
     * backend (its faster one here, so the stricter baseline); RocksDB's figures and ratios are
     * shown beside it, and its result must agree too.
     */
    private static void report(final NexmarkQuery query, final Runs flink, final Optional<Runs> flinkRocksDb, final Optional<Runs> ours,
                               final Optional<Runs> jet, final List<Measurement> measurements, final List<Ratio> ratios,
                               final List<GoalCheck> goals, final List<String> notes) {
        final String q = query + " ";
        final String hashMap = FlinkRun.StateBackend.HASHMAP.engine();
        final String rocksDb = FlinkRun.StateBackend.ROCKSDB.engine();
        figures(measurements, q + hashMap, "reference", flink);
        flinkRocksDb.ifPresent(r -> figures(measurements, q + rocksDb, "reference", r));
        final boolean rocksDbAgrees = flinkRocksDb.map(r -> r.result().equals(flink.result())).orElse(true);
        jet.ifPresent(j -> figures(measurements, q + "plain Jet", "reference", j));
        final boolean jetAgrees = jet.map(j -> j.result().equals(flink.result())).orElse(true);
        if (ours.isEmpty()) {
            goals.add(GoalCheck.notMeasured(q + "StreamGrid ≥ 3× Flink's events/s per core", "StreamGrid's " + query
                    + " is not built yet"));
            goals.add(GoalCheck.notMeasured(q + "StreamGrid ≥ 2× plain Jet's events/s", "StreamGrid's " + query + " is not built yet"));
            notes.add(q + (jet.isEmpty() ? "only Flink's version is built; its result: " + flink.result()
                    : jetAgrees ? "Flink and plain Jet computed the same result: " + flink.result()
                    : "RESULTS DIFFER: Flink " + flink.result() + ", plain Jet " + jet.get().result()));
            return;
        }
        final Runs sg = ours.get();
        figures(measurements, q + "StreamGrid", "ours", sg);
        final boolean agree = jetAgrees && rocksDbAgrees && sg.result().equals(flink.result());
        final double perCore = median(sg.eventsPerCpuSecond()) / median(flink.eventsPerCpuSecond());
        ratios.add(Ratio.of(q + "StreamGrid / Flink, events/s per core", median(sg.eventsPerCpuSecond()),
                median(flink.eventsPerCpuSecond()), "the goal is ≥ 3"));
        ratios.add(Ratio.of(q + "StreamGrid / Flink, events/s", median(sg.eventsPerSecond()), median(flink.eventsPerSecond()),
                "above 1: we drain the input sooner"));
        flinkRocksDb.ifPresent(r -> ratios.add(Ratio.of(q + "StreamGrid / Flink on RocksDB, events/s per core",
                median(sg.eventsPerCpuSecond()), median(r.eventsPerCpuSecond()), "Flink's NEXMark setup; no goal (HashMap is the stricter)")));
        final String equal = agree ? "results equal (" + flink.result() + ")" : "RESULTS DIFFER: Flink " + flink.result()
                + flinkRocksDb.map(r -> ", Flink on RocksDB " + r.result()).orElse("") + ", StreamGrid " + sg.result()
                + jet.map(j -> ", plain Jet " + j.result()).orElse("");
        goals.add(GoalCheck.of(q + "StreamGrid ≥ 3× Flink's events/s per core", agree && perCore >= 3, String.format(Locale.ROOT,
                "%.2f× (%,.0f vs %,.0f events per CPU second); %s", perCore, median(sg.eventsPerCpuSecond()),
                median(flink.eventsPerCpuSecond()), equal)));
        if (jet.isPresent()) {
            final double vsJet = median(sg.eventsPerSecond()) / median(jet.get().eventsPerSecond());
            ratios.add(Ratio.of(q + "StreamGrid / plain Jet, events/s", median(sg.eventsPerSecond()), median(jet.get().eventsPerSecond()),
                    "the goal is ≥ 2"));
            goals.add(GoalCheck.of(q + "StreamGrid ≥ 2× plain Jet's events/s", agree && vsJet >= 2, String.format(Locale.ROOT,
                    "%.2f× (%,.0f vs %,.0f events/s); %s", vsJet, median(sg.eventsPerSecond()), median(jet.get().eventsPerSecond()),
                    equal)));
        } else {
            goals.add(GoalCheck.notMeasured(q + "StreamGrid ≥ 2× plain Jet's events/s", "plain Jet's " + query + " is not built yet"));
        }
    }

    /** An engine's two figures of a query: events/s and events/s per core, over its runs. */
    private static void figures(final List<Measurement> measurements, final String subject, final String kind, final Runs runs) {
        measurements.add(Measurement.of(subject, kind, "events/s", runs.eventsPerSecond()));
        measurements.add(Measurement.of(subject, kind, "events/s per core", runs.eventsPerCpuSecond()));
    }

    private static double median(final double[] values) {
        return Measurement.of("", "", "", values).median();
    }

    private static String setup(final long events, final int runs, final NexmarkSetup setup, final long pacedSeconds) {
        return String.format(Locale.ROOT, "%,d NEXMark events (persons : auctions : bids = 1 : 3 : 46; hot sellers, bidders and "
                        + "auctions as the specification describes; seed %d; event time %,d events per second; padding %d %%) from "
                        + "the shared generator. StreamGrid and plain Jet: one embedded member (2 cooperative threads), the three "
                        + "schema logs of %d partitions, local parallelism %d. Flink %s: a local MiniCluster in a JVM of its own, "
                        + "parallelism %d, the HashMap state backend (the goals' baseline) and, on the queries that keep state "
                        + "(Q3–Q11), RocksDB too (Flink's own NEXMark setup; full checkpoints, Flink's default; one run, no "
                        + "warm-up: its runs take minutes, mostly in native code); events generated into its memory before the "
                        + "job starts (two source readers, each a stride of the stream). All: exactly-once, snapshots/checkpoints every %d ms. "
                        + "Per engine and query one warm-up run (not counted), then %d run(s), each a fresh job (Flink: a fresh "
                        + "MiniCluster in the same JVM); the median is shown. Latency: each query again over %d s of events "
                        + "released at %,d per second, event time at the wall clock's pace, each row's latency from its due time "
                        + "(when its last event was released) to the engine's sink, rows due in the first %d s not counted; Flink "
                        + "as it comes (buffer timeout 100 ms, watermarks every 200 ms) and tuned for latency (buffers flushed at "
                        + "once, watermarks every 10 ms), after a warm-up run; StreamGrid on the same member as above.", events,
                setup.seed(), setup.eventsPerSecond(), setup.padding(), setup.parallelism(), setup.parallelism(), flinkVersion(),
                setup.parallelism(), SNAPSHOT_INTERVAL_MS, runs, pacedSeconds, NexmarkLatency.RATE, NexmarkLatency.WARM_UP_MS / 1000);
    }

    private static String flinkVersion() {
        return Environment.current().versions().getOrDefault("flink", "(version unknown)");
    }
}
