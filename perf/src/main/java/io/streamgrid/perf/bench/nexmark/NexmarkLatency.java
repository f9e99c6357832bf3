package io.streamgrid.perf.bench.nexmark;

import com.hazelcast.jet.JetService;
import io.streamgrid.jobs.pipeline.JobDefinition;
import io.streamgrid.nexmark.NexmarkGenerator;
import io.streamgrid.nexmark.NexmarkQuery;
import io.streamgrid.nexmark.PacedRun;
import io.streamgrid.nexmark.ResultFingerprint;
import io.streamgrid.perf.BenchContext;
import io.streamgrid.perf.report.GoalCheck;
import io.streamgrid.perf.report.LatencyProfile;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;


/**
 * NEXMark's second half: event → result latency at a fixed rate, StreamGrid against Flink. The
 * events are released at {@link #RATE} per second with event time running at the wall clock's
 * pace ({@link PacedRun}): StreamGrid's by a writer appending each to the schema logs when it is
 * due while the query's jobs run, Flink's by its source readers, each holding an event until it is
 * due. Every result row's latency is the time from its due time (the moment its last event was
 * released; {@link NexmarkQuery}'s due times) to its arrival at the engine's sink. Rows due in the
 * first {@link #WARM_UP_MS} of event time are not counted (deployment, the JIT), nor rows the end of
 * the input flushed. Flink runs twice, as it comes and tuned for latency; the goal is against the
 * lower of its two p99s. StreamGrid runs with its logs on disk (as deployed: the goal's figure) and
 * again in memory. Both engines' results are checked equal, as in the throughput half. Plain
 * Jet is not in this half: its sinks see no event times.
 */
final class NexmarkLatency {
    /** Events per second, released at the wall clock's pace: a rate every engine sustains on every query here. */
    static final long RATE = 50_000;
    /** Event time at the start of a paced run not measured. */
    static final long WARM_UP_MS = 10_000;
    /** How long a paced run's results must stay unchanged before it is taken as done without matching Flink's. */
    private static final long QUIET_MS = 15_000;
    /** A memory file system for the in-memory run of StreamGrid's logs. */
    private static final Path IN_MEMORY_ROOT = Path.of("/dev/shm");
    /** Between submitting StreamGrid's jobs and releasing the first event: their processors start on the empty logs. */
    private static final long START_PAUSE_MS = 2_000;

    private NexmarkLatency() {
    }

    /** What a paced run of one query found: the engines' latency profiles, the goal's check and a note. */
    record Outcome(List<LatencyProfile> profiles, GoalCheck goal, String note) {
    }

    /** Runs {@code query} paced in Flink and in StreamGrid ({@code jobs}, on {@code jet}) over {@code seconds} of event time. */
    static Outcome measure(final BenchContext context, final NexmarkQuery query, final List<JobDefinition> jobs, final JetService jet,
                           final long seconds) throws InterruptedException {
        final NexmarkSetup setup = paced(NexmarkSetup.DEFAULT);
        final NexmarkGenerator generator = setup.generator();
        final long events = RATE * seconds;
        final String phase = String.format(Locale.ROOT, "%,d events/s", RATE);
        context.progress(query + " paced at " + phase + " for " + seconds + " s: Flink, as it comes and tuned for latency");
        final List<FlinkRun.Paced> flink = FlinkRun.paced(query, events, setup, NexmarkBench.SNAPSHOT_INTERVAL_MS, WARM_UP_MS,
                context.workDir().resolve("flink-paced-" + query + ".log"), context::progress);
        final ResultFingerprint expected = flink.get(0).result();
        if (flink.stream().anyMatch(run -> !run.result().equals(expected))) {
            throw new IllegalStateException("Flink's paced runs of " + query + " computed different results: " + flink);
        }
        final List<LatencyProfile> profiles = new ArrayList<>();
        Histogram bestFlink = null;
        for (final FlinkRun.Paced run : flink) {
            profiles.add(LatencyProfile.ofNanos(query + " Flink (" + tuning(run.tuning()) + ")", phase, RATE, run.latencyNanos(), 0));
            if (bestFlink == null || run.latencyNanos().getValueAtPercentile(99) < bestFlink.getValueAtPercentile(99)) {
                bestFlink = run.latencyNanos();
            }
            context.progress(String.format(Locale.ROOT, "%s Flink (%s): p50 %s, p99 %s over %,d rows", query, tuning(run.tuning()),
                    millis(run.latencyNanos().getValueAtPercentile(50)), millis(run.latencyNanos().getValueAtPercentile(99)),
                    run.latencyNanos().getTotalCount()));
        }

        context.progress(query + " paced at " + phase + " for " + seconds + " s: StreamGrid, its logs on disk");
        final PacedRun paced = new PacedRun(setup.baseTimeMs(), WARM_UP_MS, generator.timeOf(events - 1));
        final InJvmRun run = streamGrid(jet, jobs, setup, events, paced, expected, context.workDir().resolve("ingest-paced"));
        final Histogram ours = paced.latencies();
        profiles.add(LatencyProfile.ofNanos(query + " StreamGrid (logs on disk)", phase, RATE, ours, 0));
        final boolean equal = run.result().equals(expected);
        context.progress(String.format(Locale.ROOT, "%s StreamGrid (logs on disk): p50 %s, p99 %s over %,d rows; %s", query,
                millis(ours.getValueAtPercentile(50)), millis(ours.getValueAtPercentile(99)), ours.getTotalCount(),
                equal ? "result equals Flink's" : "result DIFFERS from Flink's " + expected + ": " + run.result()));
        final String inMemory = inMemory(context, query, jobs, jet, setup, events, expected, phase, profiles);

        final double ratio = (double) ours.getValueAtPercentile(99) / bestFlink.getValueAtPercentile(99);
        final String detail = String.format(Locale.ROOT, "StreamGrid p99 %s against Flink's best %s (%.3f of it) over %,d and %,d rows; %s",
                millis(ours.getValueAtPercentile(99)), millis(bestFlink.getValueAtPercentile(99)), ratio, ours.getTotalCount(),
                bestFlink.getTotalCount(), equal ? "results equal (" + expected + ")" : "RESULTS DIFFER: Flink " + expected
                        + ", StreamGrid " + run.result());
        final boolean measured = ours.getTotalCount() > 0 && bestFlink.getTotalCount() > 0;
        final GoalCheck goal = measured
                ? GoalCheck.of(query + " StreamGrid's result latency p99 ≤ ⅓ of Flink's", equal && ratio <= 1.0 / 3, detail)
                : GoalCheck.notMeasured(query + " StreamGrid's result latency p99 ≤ ⅓ of Flink's", "no row was due within the measured "
                + "span: " + detail);
        return new Outcome(profiles, goal, query + " latency at " + phase + ": " + detail + inMemory);
    }

    /**
     * StreamGrid again with its logs in memory ({@link #IN_MEMORY_ROOT}, a tmpfs), as Flink reads its
     * events from memory: what the disk under the logs adds (the kernel writing back the pages of
     * the memory-mapped queues stalls the appends now and then). Not what the goal is checked on;
     * skipped where there is no such file system. Returns the note's part.
     */
    private static String inMemory(final BenchContext context, final NexmarkQuery query, final List<JobDefinition> jobs,
                                   final JetService jet, final NexmarkSetup setup, final long events, final ResultFingerprint expected,
                                   final String phase, final List<LatencyProfile> profiles) {
        if (!Files.isDirectory(IN_MEMORY_ROOT) || !Files.isWritable(IN_MEMORY_ROOT)) {
            return "; StreamGrid with its logs in memory not run (no " + IN_MEMORY_ROOT + ")";
        }
        context.progress(query + " paced: StreamGrid, its logs in memory (" + IN_MEMORY_ROOT + ")");
        final Path ingest = IN_MEMORY_ROOT.resolve("streamgrid-nexmark-" + ProcessHandle.current().pid());
        try {
            final PacedRun paced = new PacedRun(setup.baseTimeMs(), WARM_UP_MS, setup.generator().timeOf(events - 1));
            final InJvmRun run = streamGrid(jet, jobs, setup, events, paced, expected, ingest);
            final Histogram latencies = paced.latencies();
            profiles.add(LatencyProfile.ofNanos(query + " StreamGrid (logs in memory)", phase, RATE, latencies, 0));
            return String.format(Locale.ROOT, "; with its logs in memory StreamGrid's p99 was %s (p50 %s)%s",
                    millis(latencies.getValueAtPercentile(99)), millis(latencies.getValueAtPercentile(50)),
                    run.result().equals(expected) ? "" : ", its RESULT DIFFERED: " + run.result());
        } finally {
            BenchContext.empty(ingest);
            try {
                Files.deleteIfExists(ingest);
            } catch (final IOException e) {
                context.progress("could not remove " + ingest + ": " + e.getMessage());
            }
        }
    }

    /**
     * A paced run of StreamGrid's {@code jobs} on {@code jet}: {@code events} of {@code setup}'s
     * events encoded first, fresh schema logs under {@code ingest}, the jobs started on them, then
     * the events written as {@code paced} releases them; done when the rows equal {@code expected} (or stay unchanged for
     * the quiet time). The rows' latencies are in {@code paced}.
     */
    static InJvmRun streamGrid(final JetService jet, final List<JobDefinition> jobs, final NexmarkSetup setup, final long events,
                               final PacedRun paced, final ResultFingerprint expected, final Path ingest) {
        final NexmarkLogs.Encoded encoded = NexmarkLogs.encode(setup.generator(), events);
        ResultRows.STREAMGRID.pacedBy(paced);
        try {
            return InJvmRun.run(jet, ResultRows.STREAMGRID, expected, j -> {
                final InputLogs input = InputLogs.chronicle(ingest);
                input.createEmptyEventLogs(setup.parallelism());
                final Runnable stop = NexmarkBench.submitAll(j, jobs, input, setup);
                InJvmRun.sleep(START_PAUSE_MS);
                encoded.writePaced(input, paced);
                return stop;
            }, QUIET_MS);
        } finally {
            ResultRows.STREAMGRID.pacedBy(null);
        }
    }

    /** The paced runs' setup: {@code base}'s, with event time running at {@link #RATE}. */
    static NexmarkSetup paced(final NexmarkSetup base) {
        return new NexmarkSetup(base.seed(), RATE, base.baseTimeMs(), base.padding(), base.parallelism());
    }

    private static String tuning(final String name) {
        return name.equals("DEFAULTS") ? "as it comes" : "tuned for latency";
    }

    private static String millis(final long nanos) {
        return String.format(Locale.ROOT, "%.2f ms", nanos / 1e6);
    }
}
