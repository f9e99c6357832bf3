package io.streamgrid.perf.report;

import java.util.List;

/**
 * What one benchmark run measured, as written to {@code perf/results/<name>.json} and rendered into
 * {@code perf/RESULTS.md}. Immutable; every figure is a measurement of this run, never a constant.
 *
 * @param name         the benchmark's name ({@code ./streamgrid bench NAME})
 * @param title        one line saying what is compared
 * @param setup        how it was run: data sizes, rates, durations, what each subject is
 * @param mode         {@code quick} or {@code full}
 * @param finishedAt   ISO-8601 instant the run ended
 * @param environment  the machine and versions
 * @param measurements throughput-like figures, each the median of its runs with their range
 * @param latencies    latency distributions (open-loop or sampled), each also charted
 * @param ratios       ours against each reference, and against the limit where there is one
 * @param goals        the goals this benchmark answers, each with its verdict
 * @param notes        what a reader should know to trust or doubt the figures
 */
public record BenchResult(String name, String title, String setup, String mode, String finishedAt,
                          Environment environment, List<Measurement> measurements, List<LatencyProfile> latencies,
                          List<Ratio> ratios, List<GoalCheck> goals, List<String> notes) {
    public BenchResult {
        measurements = List.copyOf(measurements);
        latencies = List.copyOf(latencies);
        ratios = List.copyOf(ratios);
        goals = List.copyOf(goals);
        notes = List.copyOf(notes);
    }
}
