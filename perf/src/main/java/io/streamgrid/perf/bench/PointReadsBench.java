package io.streamgrid.perf.bench;

import io.streamgrid.perf.BenchContext;
import io.streamgrid.perf.Benchmark;
import io.streamgrid.perf.jmh.PointReads;
import io.streamgrid.perf.report.BenchResult;
import io.streamgrid.perf.report.Environment;
import io.streamgrid.perf.report.GoalCheck;
import io.streamgrid.perf.report.LatencyProfile;
import io.streamgrid.perf.report.Ratio;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.Statistics;

import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Benchmark 3: point reads, through JMH in SampleTime mode (each sampled call timed on its own),
 * one forked JVM per subject with this JVM's flags. See {@link PointReads} for the subjects.
 */
public final class PointReadsBench implements Benchmark {
    private static final String GOAL = "LocalView get p99 ≤ 200 ns and ≤ ⅓ of the near cache's p99";
    private static final Map<String, String> SUBJECTS = subjects();

    private static Map<String, String> subjects() {
        final Map<String, String> subjects = new LinkedHashMap<>();
        subjects.put("localView", "LocalView.get (StreamGrid)");
        subjects.put("nearCache", "client near cache get (OBJECT)");
        subjects.put("client", "client IMap.get over loopback");
        subjects.put("embeddedMember", "embedded member IMap.get (local key)");
        subjects.put("concurrentHashMap", "ConcurrentHashMap.get");
        return subjects;
    }

    @Override
    public String name() {
        return "point-reads";
    }

    @Override
    public String title() {
        return "point reads: LocalView vs near cache vs client vs embedded member vs ConcurrentHashMap";
    }

    @Override
    public BenchResult run(final BenchContext context) throws Exception {
        final int warmups = context.pick(2, 3);
        final int iterations = context.pick(3, 5);
        final int seconds = context.pick(2, 5);
        final List<String> jvmArgs = new ArrayList<>(ManagementFactory.getRuntimeMXBean().getInputArguments());
        jvmArgs.add("-Djava.awt.headless=true");
        final Map<String, Statistics> bySubject = new LinkedHashMap<>();
        for (final String method : SUBJECTS.keySet()) {
            context.progress("JMH " + method + ": " + warmups + " warm-up and " + iterations + " measured iterations of "
                    + seconds + " s, SampleTime, 1 fork");
            final Collection<RunResult> results = new Runner(new OptionsBuilder()
                    .include(PointReads.class.getName() + "." + method + "$")
                    .mode(Mode.SampleTime)
                    .timeUnit(TimeUnit.NANOSECONDS)
                    .warmupIterations(warmups).warmupTime(TimeValue.seconds(seconds))
                    .measurementIterations(iterations).measurementTime(TimeValue.seconds(seconds))
                    .forks(1).threads(1)
                    .jvmArgs(jvmArgs.toArray(String[]::new))
                    .shouldFailOnError(true)
                    .build()).run();
            for (final RunResult result : results) {
                final BenchmarkParams params = result.getParams();
                final String name = params.getBenchmark().substring(params.getBenchmark().lastIndexOf('.') + 1);
                bySubject.put(name, result.getPrimaryResult().getStatistics());
            }
            if (!bySubject.containsKey(method)) {
                throw new IllegalStateException("JMH returned no result for " + method);
            }
        }

        final List<LatencyProfile> latencies = new ArrayList<>();
        SUBJECTS.forEach((method, subject) -> {
            final Statistics stats = bySubject.get(method);
            latencies.add(LatencyProfile.ofPercentiles(subject, "JMH sampled", 0, stats.getN(), 0,
                    p -> stats.getPercentile(p == 0 ? 0.0001 : p)));
        });
        final LatencyProfile view = latencies.get(0);
        final LatencyProfile near = latencies.get(1);
        final List<Ratio> ratios = new ArrayList<>();
        for (final LatencyProfile other : latencies.subList(1, latencies.size())) {
            ratios.add(Ratio.of("LocalView / " + other.subject() + ", p99", view.p99Us(), other.p99Us(),
                    "below 1: LocalView is faster"));
        }
        final double viewP99Ns = view.p99Us() * 1000;
        final double nearP99Ns = near.p99Us() * 1000;
        final boolean met = viewP99Ns <= 200 && viewP99Ns <= nearP99Ns / 3;
        return new BenchResult(name(), title(),
                "A one-member StreamGrid cluster in a JMH fork (defaults YAML: state map with sync backup and event "
                        + "journal), 10,000 entries of a small record; keys pre-boxed, read in a seeded shuffled order; one "
                        + "reading thread. Subjects: LocalView (client-side view kept by a continuous query), a second "
                        + "client whose near cache (OBJECT format, invalidate on change) holds every entry, a plain client "
                        + "over loopback, the member's own IMap, and a ConcurrentHashMap of the same values. JMH SampleTime: "
                        + warmups + " warm-up and " + iterations + " measured iterations of " + seconds + " s, one fork each.",
                context.pick("quick", "full"), Instant.now().toString(), Environment.current(), List.of(), latencies, ratios,
                List.of(GoalCheck.of(GOAL, met, String.format(Locale.ROOT,
                        "LocalView p99 %.0f ns (goal 200 ns), near cache p99 %.0f ns, ratio %.2f (goal ≤ 0.33)",
                        viewP99Ns, nearP99Ns, viewP99Ns / nearP99Ns))),
                List.of("JMH SampleTime times each sampled call with System.nanoTime, whose own cost (about 20–30 ns on "
                                + "these machines) and granularity are inside every figure; sub-100 ns percentiles are "
                                + "bounded below by it, which is why the ConcurrentHashMap row shows it.",
                        "The member, both clients and the reading thread share 2 cores: client and member reads include "
                                + "thread hand-offs (about 15 µs each here, see ANCHORS.md)."));
    }
}
