package io.streamgrid.perf.bench;

import com.hazelcast.jet.JetService;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.config.JobConfig;
import com.hazelcast.jet.config.ProcessingGuarantee;
import com.hazelcast.jet.pipeline.Pipeline;
import com.hazelcast.jet.pipeline.SinkBuilder;
import com.hazelcast.jet.pipeline.StreamStage;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.examples.machines.MachineHealthJob;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.pattern.Pattern;
import io.streamgrid.jobs.pattern.PatternJobs;
import io.streamgrid.jobs.schema.EventSchema;
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
 * Pattern detection (issue 14): StreamGrid's pattern job against the same pattern hand-coded in a
 * plain Jet {@code groupingKey(...).mapStateful(...)} stage.
 *
 * <p>Design: two schemas, temperature and pressure, keyed by machine (10,000 machines), in time
 * order; the pattern is "temperature above 70 °C and rising over 3 consecutive readings, then two
 * pressure readings, the second 0.5 bar below the first, within 60 s". Values are drawn so that
 * thousands of matches happen. Each reading is counted once where the subject first sees it (ours:
 * a counting condition — a one-step pattern per schema that never matches; Jet: in the stateful
 * stage); throughput = readings / time from submission until every reading was counted, the last
 * ones released by an end-of-stream record per log. The hand-coded matcher keeps the same partial
 * matches and rules as ours but is specialised to this one pattern (no copies of the readings,
 * no buffering: the data comes in order), which is what a Jet user would write.
 */
public final class PatternBench implements Benchmark {
    static final EventSchema TEMPERATURE = MachineHealthJob.TEMPERATURE;
    static final EventSchema PRESSURE = MachineHealthJob.PRESSURE;
    static final int MACHINES = 10_000;
    static final int PARTITIONS = 2;
    static final int PARALLELISM = 2;
    static final long WITHIN_MS = MachineHealthJob.OVERHEAT.withinMs();
    private static final long BASE_TIME = 1_700_000_000_000L;
    static final ResultTally OURS = new ResultTally();
    static final ResultTally JET = new ResultTally();
    private static final AtomicInteger JOB_IDS = new AtomicInteger();

    @Override
    public String name() {
        return "pattern";
    }

    @Override
    public String title() {
        return "pattern detection across two streams per key (10,000 machines): StreamGrid pattern job vs the pattern "
                + "hand-coded in plain Jet mapStateful";
    }

    @Override
    public BenchResult run(final BenchContext context) throws Exception {
        final int runs = context.pick(3, 5);
        final int readings = context.pick(1_000_000, 4_000_000);
        final int warmUps = context.pick(1, 3); // as the keyed benchmark: plain Jet's first runs in a fresh JVM are slow
        final Path dir = context.workDir().resolve("ingest");
        context.progress("generating " + readings + " readings of " + MACHINES + " machines into " + dir);
        generate(dir, readings);
        final List<String> labels = List.of("StreamGrid pattern job", "plain Jet mapStateful, pattern hand-coded");
        final List<Function<JetService, Job>> subjects = List.of(ours(dir), plainJet(dir));
        final List<ResultTally> tallies = List.of(OURS, JET);
        final double[][] rates;
        try (EmbeddedGrid grid = EmbeddedGrid.start(context.workDir().resolve("member"))) {
            rates = Drain.alternating(context, grid.member().getJet(), labels, subjects, tallies, readings, warmUps, runs, "readings");
        }
        context.emptyWorkDir();
        final List<Measurement> m = List.of(Measurement.of(labels.get(0), "ours", "readings/s", rates[0]),
                Measurement.of(labels.get(1), "reference", "readings/s", rates[1]));
        final double ours = m.get(0).median();
        final double plain = m.get(1).median();
        return new BenchResult(name(), title(), String.format(Locale.ROOT, "%,d readings (half temperature, half pressure) of "
                        + "%,d machines in time order, in two schema logs of %d partitions; one embedded member (Jet, 2 cooperative "
                        + "threads), local parallelism %d. A benchmark JVM with a fixed heap; %d warm-up rounds, then %d runs, subjects alternating.",
                readings, MACHINES, PARTITIONS, PARALLELISM, warmUps, runs), context.pick("quick", "full"), Instant.now().toString(),
                Environment.current(), m, List.of(),
                List.of(Ratio.of("StreamGrid / plain Jet, readings/s", ours, plain, "above 1: we are faster; the goal is ≥ 2")),
                List.of(GoalCheck.of("Pattern detection ≥ 2× the pattern hand-coded in plain Jet mapStateful", ours >= 2 * plain,
                        String.format(Locale.ROOT, "%.2f× plain Jet (%,.0f vs %,.0f readings/s)", ours / plain, ours, plain))),
                List.of("Ours matches in event-time order (it buffers each reading until the watermark passes it, so "
                                + "out-of-order readings match as if on time) and merges the two logs by event time; the hand-coded "
                                + "Jet stage takes readings as they arrive, which is only the same because this data is in order.",
                        "Both run without a processing guarantee here; the exactly-once pattern runs are in the tests "
                                + "(PatternJobOracleTest, PatternExactlyOnceTest)."));
    }

    private static void generate(final Path dir, final int readings) {
        final SplittableRandom random = new SplittableRandom(20_261_201L);
        final SchemaRecord[] records = {new SchemaRecord(TEMPERATURE.layout()), new SchemaRecord(PRESSURE.layout())};
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        try (SchemaLog temperature = SchemaLog.open(SchemaLog.directoryOf(dir, TEMPERATURE.name()), TEMPERATURE, PARTITIONS);
             SchemaLog pressure = SchemaLog.open(SchemaLog.directoryOf(dir, PRESSURE.name()), PRESSURE, PARTITIONS)) {
            final SchemaLog[] logs = {temperature, pressure};
            for (int i = 0; i < readings; i++) {
                final int s = i & 1;
                final double value = s == 0 ? 60 + random.nextDouble() * 40 : 4 + random.nextDouble() * 2;
                records[s].wrapForWrite(buffer, 0).sequence(i).setLong(0, random.nextInt(MACHINES))
                        .setTimestamp(1, BASE_TIME + i / 10).setDouble(2, value);
                logs[s].append(records[s]);
            }
            temperature.appendEndOfStream();
            pressure.appendEndOfStream();
        }
    }

    /** The machine-health example's pattern: its hand-coded twin is {@link #match}. */
    static final Pattern OVERHEAT = MachineHealthJob.OVERHEAT;

    /** Counts every reading of {@code schema} once and never matches. */
    private static Pattern counting(final EventSchema schema) {
        return Pattern.named("count-" + schema.name()).step("seen", schema).where((event, match) -> {
            OURS.tally.increment();
            return false;
        }).within(1).build();
    }

    private static Function<JetService, Job> ours(final Path dir) {
        final KeyedJob<?> job = PatternJobs.job("bench-patterns", List.of(TEMPERATURE, PRESSURE),
                List.of(OVERHEAT, counting(TEMPERATURE), counting(PRESSURE)), TimePolicy.of(0, 0).withIdleTimeout(60_000),
                "bench-alerts");
        return jet -> Jobs.submit(jet, job, JobOptions.of(dir).withLocalParallelism(PARALLELISM), null,
                new JobConfig().setName("bench-patterns-" + JOB_IDS.incrementAndGet()).setProcessingGuarantee(ProcessingGuarantee.NONE));
    }

    /** One reading as the Jet pipeline carries it; {@code pressure} tells the two streams apart. */
    record Reading(long machine, long ts, double value, boolean pressure) implements Serializable {
    }

    /** The hand-coded matcher's partial match: the same rules as {@link Pattern}, for this one pattern. */
    static final class Run {
        final long start;
        int rising = 1;
        double lastCelsius;
        int drops;
        double firstBar;

        Run(final long start, final double celsius) {
            this.start = start;
            this.lastCelsius = celsius;
        }
    }

    /** Per machine: the partial matches, oldest first. */
    static final class Matches implements Serializable {
        final ArrayList<Run> runs = new ArrayList<>();
    }

    /** One reading through the hand-coded matcher; returns the start time of a completed match, or null. */
    static Long match(final Matches state, final Reading reading) {
        JET.tally.increment();
        final ArrayList<Run> runs = state.runs;
        for (int r = 0; r < runs.size(); r++) {
            final Run run = runs.get(r);
            if (reading.ts() - run.start > WITHIN_MS) {
                runs.remove(r--);
                continue;
            }
            if (run.rising < 3) {
                if (!reading.pressure()) {
                    if (reading.value() > 70 && reading.value() > run.lastCelsius) {
                        run.rising++;
                        run.lastCelsius = reading.value();
                    } else {
                        runs.remove(r--);
                    }
                }
            } else if (reading.pressure()) {
                if (run.drops == 0) {
                    run.drops = 1;
                    run.firstBar = reading.value();
                } else if (reading.value() <= run.firstBar - 0.5) {
                    runs.clear();
                    return run.start;
                } else {
                    runs.remove(r--);
                }
            }
        }
        if (!reading.pressure() && reading.value() > 70) {
            runs.add(new Run(reading.ts(), reading.value()));
        }
        return null;
    }

    private static Function<JetService, Job> plainJet(final Path dir) {
        final Pipeline pipeline = Pipeline.create();
        final StreamStage<Reading> temperatures = pipeline.readFrom(SchemaLogSource.of(SchemaLog.directoryOf(dir, TEMPERATURE.name()),
                TEMPERATURE, PARALLELISM, r -> new Reading(r.keyLong(), r.eventTime(), r.getDouble(2), false))).withNativeTimestamps(0);
        final StreamStage<Reading> pressures = pipeline.readFrom(SchemaLogSource.of(SchemaLog.directoryOf(dir, PRESSURE.name()),
                PRESSURE, PARALLELISM, r -> new Reading(r.keyLong(), r.eventTime(), r.getDouble(2), true))).withNativeTimestamps(0);
        temperatures.merge(pressures)
                .groupingKey(Reading::machine)
                .mapStateful(Matches::new, (Matches state, Long machine, Reading reading) -> match(state, reading))
                .writeTo(SinkBuilder.sinkBuilder("alerts", c -> "bench-alerts").<Long>receiveFn((name, start) -> { }).build());
        return jet -> jet.newJob(pipeline, new JobConfig().setName("bench-jet-pattern-" + JOB_IDS.incrementAndGet())
                .setProcessingGuarantee(ProcessingGuarantee.NONE));
    }
}
