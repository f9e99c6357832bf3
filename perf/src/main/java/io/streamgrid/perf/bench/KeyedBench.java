package io.streamgrid.perf.bench;

import com.hazelcast.jet.JetService;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.config.JobConfig;
import com.hazelcast.jet.config.ProcessingGuarantee;
import com.hazelcast.jet.pipeline.Pipeline;
import com.hazelcast.jet.pipeline.SinkBuilder;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedContext;
import io.streamgrid.jobs.keyed.KeyedFunction;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.StateCodec;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.perf.BenchContext;
import io.streamgrid.perf.Benchmark;
import io.streamgrid.perf.report.BenchResult;
import io.streamgrid.perf.report.Environment;
import io.streamgrid.perf.report.GoalCheck;
import io.streamgrid.perf.report.Measurement;
import io.streamgrid.perf.report.Ratio;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.Serializable;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Keyed operator: per-key running state with one event-time timer per key, 100,000 string keys —
 * StreamGrid's keyed runtime against the same logic in a plain Jet pipeline
 * ({@code groupingKey(...).mapStateful(ttl, ...)}, whose TTL is Jet's per-key event-time timer).
 *
 * <p>Design: each key counts its events and keeps a timer 1 s of event time after its last event
 * (ours: delete the old timer, register the new one, on the timer emit the count and clear; Jet:
 * the TTL, whose eviction emits). Each event applied is tallied; throughput = events / time from
 * submission until every event was applied once — a subject that loses or double-counts never
 * finishes. Why not wait for the timers' emissions as well: Jet's mapStateful evicts in the order
 * keys were first seen and stops at the first key still alive, so with keys that stay busy its
 * evictions lag behind the watermark (in our runs 7 % of the counts had not come two minutes after
 * the last event); ours fire as the watermark passes, which the keyed tests check. A sentinel event
 * per partition, 2 s after the last, moves every watermark past every timer. Allocation: bytes
 * allocated during the run per event, by Jet's threads (the goal's figure) and by the whole JVM.
 */
public final class KeyedBench implements Benchmark {
    static final EventSchema VISIT = EventSchema.builder("bench-visit").stringKey("user", 16).eventTime("ts")
            .float64("amount").build();
    static final int KEYS = 100_000;
    static final long GAP_MS = 1_000;
    static final int PARTITIONS = 2;
    static final int PARALLELISM = 2;
    private static final long BASE_TIME = 1_700_000_000_000L;
    private static final long EVENTS_PER_EVENT_SECOND = 1_000_000;
    private static final String SENTINEL = "sentinel-";
    /** Where the timers' counts go: ours as state updates (the benchmark's DAG writes them nowhere), Jet's to a no-op sink. */
    private static final String COUNTS = "bench-counts";
    static final ResultTally OURS = new ResultTally();
    static final ResultTally JET = new ResultTally();
    private static final AtomicInteger JOB_IDS = new AtomicInteger();

    @Override
    public String name() {
        return "keyed-operator";
    }

    @Override
    public String title() {
        return "keyed operator with a timer per key (100,000 string keys): StreamGrid vs plain Jet mapStateful";
    }

    @Override
    public BenchResult run(final BenchContext context) throws Exception {
        final int runs = context.pick(3, 5);
        // Plain Jet's first runs in a fresh JVM were 2-3x slower than its later ones (G1 still
        // sizing its young generation under Jet's 260 bytes per event): warm up until both settle.
        final int warmUps = context.pick(1, 3);
        final int events = context.pick(2_000_000, 10_000_000);
        final Path ingest = context.workDir().resolve("ingest");
        final Path dir = SchemaLog.directoryOf(ingest, VISIT.name());
        context.progress("generating " + events + " events over " + KEYS + " string keys into " + dir);
        generate(dir, events);
        final List<String> labels = List.of("StreamGrid keyed function (timer per key)", "plain Jet groupingKey().mapStateful(ttl)");
        final List<Function<JetService, Job>> subjects = List.of(ours(ingest), plainJet(dir));
        final List<ResultTally> tallies = List.of(OURS, JET);
        final double[][] rates = new double[2][runs];
        final double[][] bytes = new double[2][runs];
        final double[][] jetBytes = new double[2][runs];
        try (EmbeddedGrid grid = EmbeddedGrid.start(context.workDir().resolve("member"))) {
            final JetService jet = grid.member().getJet();
            Drain.warmUp(context, jet, labels, subjects, tallies, events, warmUps, "events");
            for (int run = 0; run < runs; run++) {
                for (int s = 0; s < 2; s++) {
                    final long before = AllocationMeter.allocatedBytes();
                    final long jetBefore = AllocationMeter.allocatedBytesByJetThreads();
                    rates[s][run] = Drain.drain(context, jet, subjects.get(s), events, events, tallies.get(s));
                    jetBytes[s][run] = (AllocationMeter.allocatedBytesByJetThreads() - jetBefore) / (double) events;
                    bytes[s][run] = (AllocationMeter.allocatedBytes() - before) / (double) events;
                    context.progress(String.format(Locale.ROOT, "run %d/%d %s: %,.0f events/s, %.1f bytes allocated per event "
                                    + "by Jet's threads (%.1f by the whole JVM)", run + 1, runs, labels.get(s), rates[s][run],
                            jetBytes[s][run], bytes[s][run]));
                }
            }
        }
        context.emptyWorkDir();
        final List<Measurement> m = List.of(Measurement.of(labels.get(0), "ours", "events/s", rates[0]),
                Measurement.of(labels.get(1), "reference", "events/s", rates[1]),
                Measurement.of(labels.get(0), "ours", "bytes allocated per event by Jet's threads", jetBytes[0]),
                Measurement.of(labels.get(1), "reference", "bytes allocated per event by Jet's threads", jetBytes[1]),
                Measurement.of(labels.get(0), "ours", "bytes allocated per event by the whole JVM", bytes[0]),
                Measurement.of(labels.get(1), "reference", "bytes allocated per event by the whole JVM", bytes[1]));
        final double ours = m.get(0).median();
        final double plain = m.get(1).median();
        final double oursBytes = m.get(2).median();
        final double plainBytes = m.get(3).median();
        return new BenchResult(name(), title(), setup(events, warmUps, runs), context.pick("quick", "full"), Instant.now().toString(),
                Environment.current(), m, List.of(),
                List.of(Ratio.of("StreamGrid / plain Jet, events/s", ours, plain, "above 1: we are faster; the goal is ≥ 2"),
                        Ratio.of("StreamGrid / plain Jet, bytes allocated per event by Jet's threads", oursBytes, plainBytes,
                                "below 1: we allocate less")),
                List.of(GoalCheck.of("Keyed operator ≥ 2× plain Jet mapStateful's events/s", ours >= 2 * plain,
                                String.format(Locale.ROOT, "%.2f× plain Jet (%,.0f vs %,.0f events/s)", ours / plain, ours, plain)),
                        GoalCheck.of("Keyed operator allocates near nothing per event (≤ 8 bytes on Jet's threads)", oursBytes <= 8,
                                String.format(Locale.ROOT, "%.1f bytes per event on Jet's threads, %.1f in the whole JVM "
                                        + "(plain Jet: %.1f and %.1f)", oursBytes, m.get(4).median(), plainBytes, m.get(5).median()))),
                List.of("Both read the same bytes through the same schema-log reader; StreamGrid's job is the fused "
                                + "keyed processor (no shuffle: keys never cross a log partition), plain Jet's pipeline has its "
                                + "source, a partitioned edge and the stateful stage.",
                        "Both run without a processing guarantee here; the exactly-once keyed runs are in the tests.",
                        "Allocation per event, two ways: by Jet's threads (cooperative workers, and the non-cooperative thread "
                                + "plain Jet's source builder runs on), where every stage of both jobs "
                                + "runs (the goal's figure: the job's own allocation, per-key state included), and by every thread of "
                                + "the benchmark JVM during the run (the member's housekeeping and the benchmark's own thread too)."));
    }

    private static String setup(final int events, final int warmUps, final int runs) {
        return String.format(Locale.ROOT, "%,d events, keys uniform over %,d strings (seeded), event time advancing %,d "
                        + "events per second, in a schema log of %d partitions; per key a count and one event-time timer %d ms "
                        + "after its last event, which emits the count. One embedded member (Jet, 2 cooperative threads), local "
                        + "parallelism %d, results tallied. A benchmark JVM with a fixed heap; %d warm-up rounds, then %d runs, subjects alternating.",
                events, KEYS, EVENTS_PER_EVENT_SECOND, PARTITIONS, GAP_MS, PARALLELISM, warmUps, runs);
    }

    private static void generate(final Path dir, final int events) {
        final SplittableRandom random = new SplittableRandom(20_261_201L);
        final SchemaLayout layout = VISIT.layout();
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[layout.length()]);
        final SchemaRecord record = new SchemaRecord(layout);
        final String[] keys = new String[KEYS];
        for (int k = 0; k < KEYS; k++) {
            keys[k] = String.format("user-%06d", k);
        }
        try (SchemaLog log = SchemaLog.open(dir, VISIT, PARTITIONS)) {
            long last = BASE_TIME;
            for (int i = 0; i < events; i++) {
                last = BASE_TIME + i * 1_000L / EVENTS_PER_EVENT_SECOND;
                record.wrapForWrite(buffer, 0).sequence(i).setString(0, keys[random.nextInt(KEYS)]).setTimestamp(1, last)
                        .setDouble(2, 1.0);
                log.append(record);
            }
            // One sentinel per partition, far enough ahead to fire every key's timer.
            boolean[] covered = new boolean[PARTITIONS];
            for (int n = 0, left = PARTITIONS; left > 0; n++) {
                record.wrapForWrite(buffer, 0).setString(0, SENTINEL + n).setTimestamp(1, last + 2 * GAP_MS).setDouble(2, 0);
                final int partition = log.partitionOf(record);
                if (!covered[partition]) {
                    covered[partition] = true;
                    left--;
                    log.append(record);
                }
            }
        }
    }

    private static Function<JetService, Job> ours(final Path ingest) {
        final KeyedJob<long[]> job = KeyedJob.<long[]>builder("bench-keyed", VISIT).function(new TimedCount())
                .state(StateCodec.longs(2)).time(TimePolicy.of(0, 0)).writes(COUNTS).build();
        return jet -> Jobs.submit(jet, job, JobOptions.of(ingest).withLocalParallelism(PARALLELISM), null,
                new JobConfig().setName("bench-keyed-" + JOB_IDS.incrementAndGet()).setProcessingGuarantee(ProcessingGuarantee.NONE));
    }

    /** Count per key; a timer GAP after the last event emits it. State: {count, timer time}. */
    static final class TimedCount implements KeyedFunction<long[]> {
        @Override
        public void onEvent(final SchemaRecord event, final KeyedContext<long[]> context) {
            long[] state = context.state();
            if (state == null) {
                state = new long[2];
                context.setState(state);
            } else {
                context.deleteTimer(state[1]);
            }
            state[0]++;
            state[1] = event.eventTime() + GAP_MS;
            context.registerTimer(state[1]);
            if (event.getDouble(2) > 0) { // not a sentinel
                OURS.tally.increment();
            }
        }

        @Override
        public void onTimer(final long time, final KeyedContext<long[]> context) {
            context.put(COUNTS, context.stringKey(), context.state()[0]);
            context.clearState();
        }
    }

    /** One visit as the Jet pipeline carries it. */
    record Visit(String user, long ts, double amount) implements Serializable {
    }

    private static Function<JetService, Job> plainJet(final Path dir) {
        final Pipeline pipeline = Pipeline.create();
        pipeline.readFrom(SchemaLogSource.of(dir, VISIT, PARALLELISM, r -> new Visit(r.getString(0), r.eventTime(), r.getDouble(2))))
                .withNativeTimestamps(0)
                .groupingKey(Visit::user)
                .mapStateful(GAP_MS, () -> new long[1], (long[] state, String user, Visit visit) -> {
                    state[0]++;
                    if (visit.amount() > 0) { // not a sentinel
                        JET.tally.increment();
                    }
                    return null;
                }, (long[] state, String user, Long watermark) -> state[0])
                .writeTo(SinkBuilder.sinkBuilder("counts", c -> COUNTS).<Long>receiveFn((name, count) -> { }).build());
        return jet -> jet.newJob(pipeline, new JobConfig().setName("bench-jet-mapstateful-" + JOB_IDS.incrementAndGet())
                .setProcessingGuarantee(ProcessingGuarantee.NONE));
    }
}
