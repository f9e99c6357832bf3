package io.streamgrid.perf.bench;

import io.streamgrid.jobs.window.Counter;
import io.streamgrid.jobs.pipeline.WindowedJob;
import com.hazelcast.jet.JetService;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.config.JobConfig;
import com.hazelcast.jet.config.ProcessingGuarantee;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.event.BuiltInEvents;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.jobs.window.WindowPolicy;
import io.streamgrid.perf.BenchContext;
import io.streamgrid.perf.Benchmark;
import io.streamgrid.perf.report.BenchResult;
import io.streamgrid.perf.report.Environment;
import io.streamgrid.perf.report.GoalCheck;
import io.streamgrid.perf.report.LatencyProfile;
import io.streamgrid.perf.report.Measurement;
import io.streamgrid.perf.report.Ratio;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.Function;

/**
 * Benchmarks 1 and 2: sliding-window count (10 s window, 20 ms slide) over 10,000 keys.
 *
 * <p>Design: the events are generated once (seeded) into an ingest log; each subject then drains
 * that backlog as fast as it can, and its throughput is events divided by the time from job
 * submission until the sum of all its emitted window counts equals the oracle's
 * {@code events × windowsPerEvent} — so a subject that loses, duplicates or miscounts never
 * finishes (the run fails after a timeout instead of reporting a figure). A last event of a
 * sentinel key per partition, {@code size} after the last real one, moves the watermark past
 * every real window in both engines; its own windows are not counted.
 *
 * <p>Latency: each job then runs over a live log that a writer fills at one rate for all (half the
 * lowest maximum), event time on the wall clock; every window result's latency is the time from its
 * window's end to its emission.
 *
 * <ul>
 * <li>{@code windowing}: StreamGrid's fused ingest+window job vs the plain Jet pipeline, both
 *     without a processing guarantee, vs the hand-written loop over the same events in memory.</li>
 * <li>{@code exactly-once}: each job with EXACTLY_ONCE and a snapshot every second vs without.</li>
 * </ul>
 */
public final class WindowingBench implements Benchmark {
    /** Issue 12's bar: 90 % of the 5.8× this benchmark measured before the jobs moved onto the open programming model. */
    static final double PORT_GOAL_RATIO = 5.22;
    static final long SIZE_MS = 10_000;
    static final long SLIDE_MS = 20;
    static final int KEYS = 10_000;
    static final int PARTITIONS = 2;
    static final int PARALLELISM = 2;
    /** Event-time density: events per second of event time (the stream is 1 M events/s "live"). */
    static final long EVENTS_PER_EVENT_SECOND = 1_000_000;
    static final long SENTINEL_KEY = 0xFFFF_FFFFL;
    private static final long BASE_TIME = 1_700_000_000_000L;
    static final long SNAPSHOT_INTERVAL_MS = 1_000;
    static final java.util.concurrent.atomic.AtomicInteger JOB_IDS = new java.util.concurrent.atomic.AtomicInteger();

    private final boolean exactlyOnceCost;

    private WindowingBench(final boolean exactlyOnceCost) {
        this.exactlyOnceCost = exactlyOnceCost;
    }

    /** Benchmark 1. */
    public static WindowingBench throughput() {
        return new WindowingBench(false);
    }

    /** Benchmark 2. */
    public static WindowingBench exactlyOnceCost() {
        return new WindowingBench(true);
    }

    @Override
    public String name() {
        return exactlyOnceCost ? "exactly-once" : "windowing";
    }

    @Override
    public String title() {
        return exactlyOnceCost
                ? "exactly-once cost: sliding-window count with 1 s snapshots vs none, ours and plain Jet"
                : "sliding-window count throughput: StreamGrid vs plain Jet vs a hand-written loop";
    }

    /** A subject that drains the log once and returns events/s. */
    private interface Subject {
        double run() throws Exception;
    }

    @Override
    public BenchResult run(final BenchContext context) throws Exception {
        final int runs = exactlyOnceCost ? context.pick(2, 5) : context.pick(3, 5);
        final int events = exactlyOnceCost ? context.pick(5_000_000, 10_000_000) : context.pick(2_000_000, 10_000_000);
        final Backlog shared = new Backlog(context.workDir().resolve("ingest-log"), events);
        context.progress("generating " + events + " events over " + KEYS + " keys into " + shared.dir());
        final long[] keys = exactlyOnceCost ? null : new long[events];
        final long[] timestamps = exactlyOnceCost ? null : new long[events];
        generate(shared, keys, timestamps);
        // Exactly-once runs of ours must span several snapshot intervals: at its speed that needs a
        // longer log than plain Jet's. Each job's two modes share a log, so their ratio is like for like.
        final Backlog oursBacklog;
        if (exactlyOnceCost) {
            oursBacklog = new Backlog(context.workDir().resolve("ingest-log-long"), context.pick(40_000_000, 80_000_000));
            context.progress("generating " + oursBacklog.events() + " events for StreamGrid's runs into " + oursBacklog.dir());
            generate(oursBacklog, null, null);
        } else {
            oursBacklog = shared;
        }

        final List<JobSubject> jobs = new ArrayList<>();
        jobs.add(new JobSubject("StreamGrid windowing (no guarantee)", "ours",
                dir -> ours(dir, ProcessingGuarantee.NONE), ResultTally.STREAMGRID, oursBacklog));
        if (exactlyOnceCost) {
            jobs.add(new JobSubject("StreamGrid windowing (exactly-once, 1 s snapshots)", "ours",
                    dir -> ours(dir, ProcessingGuarantee.EXACTLY_ONCE), ResultTally.STREAMGRID, oursBacklog));
        }
        jobs.add(new JobSubject("plain Jet window(sliding).aggregate(counting()) (no guarantee)", "reference",
                dir -> plainJet(dir, ProcessingGuarantee.NONE), ResultTally.PLAIN_JET, shared));
        if (exactlyOnceCost) {
            jobs.add(new JobSubject("plain Jet (exactly-once, 1 s snapshots)", "reference",
                    dir -> plainJet(dir, ProcessingGuarantee.EXACTLY_ONCE), ResultTally.PLAIN_JET, shared));
        }
        final List<Measurement> measurements = new ArrayList<>();
        final List<LatencyProfile> latencies = new ArrayList<>();
        final double liveRate;
        try (EmbeddedGrid grid = EmbeddedGrid.start(context.workDir().resolve("member"))) {
            final JetService jet = grid.member().getJet();
            final List<Subject> subjects = new ArrayList<>();
            for (final JobSubject job : jobs) {
                subjects.add(() -> Drain.drain(context, jet, job.submit().apply(job.backlog().dir()), job.backlog().events(),
                        job.backlog().expectedTally(), job.tally()));
            }
            if (!exactlyOnceCost) {
                subjects.add(() -> handWritten(keys, timestamps, shared.expectedTally()));
            }
            final double[][] rates = new double[subjects.size()][runs];
            for (int s = 0; s < subjects.size(); s++) {
                context.progress("warm-up: " + label(jobs, s));
                subjects.get(s).run();
            }
            for (int run = 0; run < runs; run++) {
                for (int s = 0; s < subjects.size(); s++) {
                    rates[s][run] = subjects.get(s).run();
                    context.progress(String.format(Locale.ROOT, "run %d/%d %s: %,.0f events/s", run + 1, runs,
                            label(jobs, s), rates[s][run]));
                }
            }
            for (int s = 0; s < subjects.size(); s++) {
                measurements.add(Measurement.of(label(jobs, s), s < jobs.size() ? jobs.get(s).role() : "limit",
                        "events/s", rates[s]));
            }
            // Latency: every job at the same live rate, half the lowest job maximum, so all can sustain it.
            double lowest = Double.MAX_VALUE;
            for (int s = 0; s < jobs.size(); s++) {
                lowest = Math.min(lowest, measurements.get(s).median());
            }
            liveRate = Math.floor(lowest / 2 / 1_000) * 1_000;
            final Duration warmUp = context.pick(Duration.ofSeconds(5), Duration.ofSeconds(10));
            final Duration measured = context.pick(Duration.ofSeconds(10), Duration.ofSeconds(30));
            for (final JobSubject job : jobs) {
                latencies.add(LiveWindowLatency.measure(context, jet, job, liveRate, warmUp, measured));
            }
        }
        context.emptyWorkDir();
        return exactlyOnceCost ? exactlyOnceResult(context, events, oursBacklog.events(), runs, measurements, latencies, liveRate)
                : throughputResult(context, events, runs, measurements, latencies, liveRate);
    }

    /** A job subject: how to submit it over a given log, where its results go, and the log it drains. */
    record JobSubject(String label, String role, Function<Path, Function<JetService, Job>> submit,
                              ResultTally tally, Backlog backlog) {
    }

    /** A generated log and its size; every event is counted in {@code size / slide} windows. */
    /** {@code dir}: an ingest directory, the request log under it ({@link #log()}); {@code events} in that log. */
    record Backlog(Path dir, int events) {
        Path log() {
            return requestLog(dir);
        }

        long expectedTally() {
            return (long) events * (SIZE_MS / SLIDE_MS);
        }
    }

    private static String label(final List<JobSubject> jobs, final int subject) {
        return subject < jobs.size() ? jobs.get(subject).label()
                : "hand-written loop (Agrona map + ring of slices, 1 thread, in memory)";
    }

    private BenchResult throughputResult(final BenchContext context, final int events, final int runs,
                                         final List<Measurement> m, final List<LatencyProfile> latencies,
                                         final double liveRate) {
        final double ours = m.get(0).median();
        final double jet = m.get(1).median();
        final double limit = m.get(2).median();
        return new BenchResult(name(), title(), setup(events, runs, liveRate), context.pick("quick", "full"),
                Instant.now().toString(), Environment.current(), m, latencies,
                List.of(Ratio.of("StreamGrid / plain Jet, events/s", ours, jet, "above 1: we are faster; the goal is ≥ 2"),
                        Ratio.of("StreamGrid / hand-written loop, events/s", ours, limit, "how close to the limit (1 = at it)"),
                        Ratio.of("plain Jet / hand-written loop, events/s", jet, limit, "the same for plain Jet"),
                        Ratio.of("StreamGrid / plain Jet, result latency p99", latencies.get(0).p99Us(),
                                latencies.get(1).p99Us(), "below 1: our results come sooner"),
                        Ratio.of("StreamGrid / plain Jet, result latency p99.9", latencies.get(0).p999Us(),
                                latencies.get(1).p999Us(), "below 1: our results come sooner")),
                List.of(GoalCheck.of("Windowing ≥ 2× plain Jet's events/s", ours >= 2 * jet, String.format(Locale.ROOT,
                                "%.2f× plain Jet (%,.0f vs %,.0f events/s); %.3f× the hand-written loop (%,.0f events/s)",
                                ours / jet, ours, jet, ours / limit, limit)),
                        GoalCheck.of("Windowing on the open programming model keeps ≥ 90 % of its ratio before the port "
                                        + "(5.8× plain Jet): ≥ " + PORT_GOAL_RATIO + "×", ours >= PORT_GOAL_RATIO * jet,
                                String.format(Locale.ROOT, "%.2f× plain Jet, %.0f %% of 5.8×", ours / jet, 100 * ours / jet / 5.8))),
                notes());
    }

    private BenchResult exactlyOnceResult(final BenchContext context, final int events, final int oursEvents, final int runs,
                                          final List<Measurement> m, final List<LatencyProfile> latencies,
                                          final double liveRate) {
        final double oursNone = m.get(0).median();
        final double oursExactlyOnce = m.get(1).median();
        final double jetNone = m.get(2).median();
        final double jetExactlyOnce = m.get(3).median();
        // The goal is judged on each round's pair (the two modes run back to back), whose ratio a slow
        // spell of this shared machine moves far less than it moves either median: one full run had a
        // round at 7.7 M events/s for both modes and the others at 13 M.
        final double[] pairs = Rounds.ratios(m.get(1).runs(), m.get(0).runs());
        final double pairedRatio = Rounds.median(pairs);
        final double cost = 1 - pairedRatio;
        final double shortestRun = oursEvents / m.get(1).max();
        final List<String> notes = new ArrayList<>(notes());
        notes.add("StreamGrid exactly-once / none per round (the two run back to back): " + Rounds.list(pairs)
                + "; the goal is judged on their median.");
        notes.add(String.format(Locale.ROOT, "StreamGrid's exactly-once runs lasted %.1f s at the shortest: about %d "
                + "snapshots at the 1 s interval, each holding the window state of 10,000 keys.", shortestRun,
                (long) Math.floor(shortestRun * 1000 / SNAPSHOT_INTERVAL_MS)));
        return new BenchResult(name(), title(), setup(events, runs, liveRate) + String.format(Locale.ROOT,
                " StreamGrid's two modes drain a longer log of %,d events (same generator) so that each run spans "
                        + "several snapshots; plain Jet's two modes drain the %,d-event log.", oursEvents, events),
                context.pick("quick", "full"), Instant.now().toString(), Environment.current(), m, latencies,
                List.of(Ratio.of("StreamGrid exactly-once / none, events/s, median of each round's pair", pairedRatio, 1,
                                "1 = snapshots cost nothing; the goal is ≥ 0.9"),
                        Ratio.of("StreamGrid exactly-once / none, events/s, medians", oursExactlyOnce, oursNone,
                                "the same from each mode's median"),
                        Ratio.of("plain Jet exactly-once / none, events/s", jetExactlyOnce, jetNone,
                                "the same for plain Jet (0.32 in ANCHORS.md)"),
                        Ratio.of("StreamGrid exactly-once / plain Jet exactly-once, events/s", oursExactlyOnce,
                                jetExactlyOnce, "above 1: we are faster with the guarantee on"),
                        Ratio.of("StreamGrid exactly-once / none, result latency p99", latencies.get(1).p99Us(),
                                latencies.get(0).p99Us(), "1 = snapshots add no latency"),
                        Ratio.of("plain Jet exactly-once / none, result latency p99", latencies.get(3).p99Us(),
                                latencies.get(2).p99Us(), "the same for plain Jet")),
                List.of(GoalCheck.of("Exactly-once (1 s snapshots) costs ≤ 10 % of throughput", cost <= 0.10,
                                String.format(Locale.ROOT, "costs %.1f%% (median of the rounds' pairs; medians %,.0f → "
                                        + "%,.0f events/s); plain Jet loses %.1f%% (%,.0f → %,.0f)", 100 * cost, oursNone,
                                        oursExactlyOnce,
                                        100 * (1 - jetExactlyOnce / jetNone), jetNone, jetExactlyOnce)),
                        GoalCheck.of("Result p99 with 1 s snapshots ≤ 2× the p99 without",
                                latencies.get(1).p99Us() <= 2 * latencies.get(0).p99Us(), String.format(Locale.ROOT,
                                        "%.2f× (%.1f vs %.1f ms at %,.0f events/s)", latencies.get(1).p99Us()
                                                / latencies.get(0).p99Us(), latencies.get(1).p99Us() / 1e3,
                                        latencies.get(0).p99Us() / 1e3, liveRate))),
                notes);
    }

    private static String setup(final int events, final int runs, final double liveRate) {
        return String.format(Locale.ROOT, "%,d REQUEST events, keys uniform over %,d source IPs (seeded), event time "
                        + "advancing %,d events per second, in an ingest log of %d partitions; sliding window %d s, slide "
                        + "%d ms (%d windows per event). One embedded member (Jet, %d cooperative threads), local "
                        + "parallelism %d, results tallied (not written to maps) by both jobs. Each subject drains the "
                        + "whole log; throughput = events / time from submission to the oracle's total "
                        + "(events × windows per event) being reached. One warm-up run per subject, then %d runs, "
                        + "subjects alternating. Latency: each job over a live log written at %,.0f events/s (half the "
                        + "lowest job maximum above, so every job can sustain it; event time = wall clock, the writer "
                        + "appending each millisecond's events when it comes), every window result's time from its "
                        + "window's end to its emission.", events, KEYS, EVENTS_PER_EVENT_SECOND, PARTITIONS,
                SIZE_MS / 1000, SLIDE_MS, SIZE_MS / SLIDE_MS, 2, PARALLELISM, runs, liveRate);
    }

    private static List<String> notes() {
        return List.of("Both jobs read the same bytes of the built-in request schema's log through the same reader and tally every window result "
                        + "of a real key; both totals must equal the oracle's exactly, else the run fails.",
                "The hand-written loop reads arrays in memory on one thread, with no source, no watermark, no "
                        + "snapshots and no hand-offs: it is the limit, not a competitor.",
                "Jet's counting() has a deduct function, so plain Jet updates each window from the previous one; "
                        + "StreamGrid's engine combines a window's slices when it emits it.");
    }

    /** Writes the backlog's events, and their keys and times into the arrays when given (the hand-written loop's input). */
    static void generate(final Backlog backlog, final long[] keys, final long[] timestamps) {
        final SplittableRandom random = new SplittableRandom(20_261_130L);
        final BuiltInEvents record = new BuiltInEvents();
        final int events = backlog.events();
        try (SchemaLog log = SchemaLog.open(backlog.log(), EventType.REQUEST.schema(), PARTITIONS)) {
            long last = BASE_TIME;
            for (int i = 0; i < events; i++) {
                final long ip = 0x0A00_0000 + random.nextInt(KEYS);
                final long timestamp = BASE_TIME + i * 1_000L / EVENTS_PER_EVENT_SECOND;
                log.append(record.request(timestamp, i, ip, 0x0A00_FFFF, 512, 200));
                if (keys != null) {
                    keys[i] = ip;
                    timestamps[i] = timestamp;
                }
                last = timestamp;
            }
            final long end = last + SIZE_MS + SLIDE_MS;
            for (int p = 0; p < PARTITIONS; p++) {
                final SchemaRecord sentinel = record.request(end, events + p, SENTINEL_KEY, 0, 0, 200);
                log.append(p, sentinel.buffer(), sentinel.offset(), sentinel.length());
            }
        }
    }

    /** Where the request log of the ingest directory {@code ingest} is. */
    static Path requestLog(final Path ingest) {
        return SchemaLog.directoryOf(ingest, EventType.REQUEST.schema().name());
    }

    static Function<JetService, Job> ours(final Path ingest, final ProcessingGuarantee guarantee) {
        final WindowedJob<Counter> job = SlidingCountJob.of(
                new WindowPolicy(WindowDefinition.sliding(SIZE_MS, SLIDE_MS), 0, 0), SENTINEL_KEY);
        return jet -> Jobs.submit(jet, job, JobOptions.of(ingest).withLocalParallelism(PARALLELISM), null,
                jobConfig(job.name(), guarantee));
    }

    private static Function<JetService, Job> plainJet(final Path ingest, final ProcessingGuarantee guarantee) {
        return jet -> jet.newJob(PlainJetSlidingCount.pipeline(requestLog(ingest), SIZE_MS, SLIDE_MS, SENTINEL_KEY, PARALLELISM),
                jobConfig("bench-plain-jet-sliding-count", guarantee));
    }

    private static JobConfig jobConfig(final String name, final ProcessingGuarantee guarantee) {
        return new JobConfig().setName(name + "-" + JOB_IDS.incrementAndGet()).setProcessingGuarantee(guarantee)
                .setSnapshotIntervalMillis(SNAPSHOT_INTERVAL_MS);
    }

    private static double handWritten(final long[] keys, final long[] timestamps, final long expectedTally) {
        final HandWrittenSlidingCount windows = new HandWrittenSlidingCount(SIZE_MS, SLIDE_MS);
        final long start = System.nanoTime();
        for (int i = 0; i < keys.length; i++) {
            windows.onEvent(keys[i], timestamps[i]);
        }
        windows.flush();
        final long elapsed = System.nanoTime() - start;
        if (windows.tally() != expectedTally) {
            throw new IllegalStateException("hand-written loop tallied " + windows.tally() + ", the oracle expects "
                    + expectedTally);
        }
        return keys.length / (elapsed / 1e9);
    }
}
