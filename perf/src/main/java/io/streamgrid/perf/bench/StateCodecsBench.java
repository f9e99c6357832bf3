package io.streamgrid.perf.bench;

import io.streamgrid.perf.BenchContext;
import io.streamgrid.perf.Benchmark;
import io.streamgrid.perf.jmh.StateCodecs;
import io.streamgrid.perf.report.BenchResult;
import io.streamgrid.perf.report.Environment;
import io.streamgrid.perf.report.GoalCheck;
import io.streamgrid.perf.report.Measurement;
import io.streamgrid.perf.report.Ratio;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.IterationResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Derived state codecs against hand-written ones (issue 45, item 3: snapshot speed within 10 %):
 * the time to write and to read one key's state, for the fraud and recommendations examples'
 * state shapes. See {@link StateCodecs}.
 */
public final class StateCodecsBench implements Benchmark {
    private static final String GOAL = "A derived state codec writes and reads within 10 % of the hand-written codec's time";
    private static final String[] STATES = {"payments", "clicks"};
    private static final String[] PHASES = {"Write", "Read"};

    @Override
    public String name() {
        return "state-codecs";
    }

    @Override
    public String title() {
        return "State codecs: derived (StateCodec.derived) vs hand-written, per key's state written to and read from a snapshot";
    }

    @Override
    public BenchResult run(final BenchContext context) throws Exception {
        final int warmups = context.pick(2, 3);
        final int iterations = context.pick(3, 5);
        final int seconds = context.pick(1, 3);
        final List<String> jvmArgs = new ArrayList<>(ManagementFactory.getRuntimeMXBean().getInputArguments());
        context.progress("JMH: " + warmups + " warm-up and " + iterations + " measured iterations of " + seconds
                + " s per method, AverageTime, 1 fork each");
        final Map<String, double[]> byMethod = new LinkedHashMap<>();
        for (final RunResult result : new Runner(new OptionsBuilder()
                .include(StateCodecs.class.getName() + "\\.")
                .mode(Mode.AverageTime)
                .timeUnit(TimeUnit.NANOSECONDS)
                .warmupIterations(warmups).warmupTime(TimeValue.seconds(seconds))
                .measurementIterations(iterations).measurementTime(TimeValue.seconds(seconds))
                .forks(1).threads(1)
                .jvmArgs(jvmArgs.toArray(String[]::new))
                .shouldFailOnError(true)
                .build()).run()) {
            final String benchmark = result.getParams().getBenchmark();
            final List<Double> scores = new ArrayList<>();
            for (final BenchmarkResult fork : result.getBenchmarkResults()) {
                for (final IterationResult iteration : fork.getIterationResults()) {
                    scores.add(iteration.getPrimaryResult().getScore());
                }
            }
            byMethod.put(benchmark.substring(benchmark.lastIndexOf('.') + 1), scores.stream().mapToDouble(Double::doubleValue).toArray());
        }

        final List<Measurement> measurements = new ArrayList<>();
        final List<Ratio> ratios = new ArrayList<>();
        double worst = 0;
        for (final String state : STATES) {
            for (final String phase : PHASES) {
                final double[] byHand = require(byMethod, state + phase + "ByHand");
                final double[] derived = require(byMethod, state + phase + "Derived");
                final Measurement hand = Measurement.of(state + " " + phase.toLowerCase(Locale.ROOT) + ", hand-written codec", "reference",
                        "ns per state", byHand);
                final Measurement ours = Measurement.of(state + " " + phase.toLowerCase(Locale.ROOT) + ", derived codec (StreamGrid)",
                        "ours", "ns per state", derived);
                measurements.add(ours);
                measurements.add(hand);
                final double ratio = ours.median() / hand.median();
                worst = Math.max(worst, ratio);
                ratios.add(new Ratio(state + " " + phase.toLowerCase(Locale.ROOT) + ": derived / hand-written, time", ratio,
                        "1 = as fast; the goal is ≤ 1.10"));
            }
        }
        return new BenchResult(name(), title(),
                "One key's state written to a reused byte buffer (as the runtime's snapshot output) and read from a DataInputStream"
                        + " (as a restore reads), by the codec an example writes by hand and by StateCodec.derived of the same class:"
                        + " payments (the fraud job's profile: long[8] and double[8] of which 6 used, two longs, a list of one record"
                        + " holding a record; the hand-written codec writes only the used part), clicks (the recommendations job's:"
                        + " double[20], long[16], five counters). Each derived state reads back to bytes equal to the hand-written"
                        + " codec's, checked before measuring. JMH AverageTime: " + warmups + " warm-up and " + iterations
                        + " measured iterations of " + seconds + " s, one fork per method.",
                context.pick("quick", "full"), Instant.now().toString(), Environment.current(), measurements, List.of(), ratios,
                List.of(GoalCheck.of(GOAL, worst <= 1.10, String.format(Locale.ROOT, "the slowest derived / hand-written ratio is %.2f×", worst))),
                List.of("A state is written at each snapshot and read at each restore, never per event: the cost per snapshot is"
                        + " this time × the keys a member holds."));
    }

    private static double[] require(final Map<String, double[]> byMethod, final String method) {
        final double[] scores = byMethod.get(method);
        if (scores == null || scores.length == 0) {
            throw new IllegalStateException("JMH returned no result for " + method);
        }
        return scores;
    }
}
