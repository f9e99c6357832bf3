package io.streamgrid.perf.report;

import java.util.Arrays;

/**
 * One figure of one subject: the median of its runs, with the smallest and largest run.
 *
 * @param subject what was measured ("StreamGrid windowing", "plain Jet", ...)
 * @param role    {@code ours}, {@code reference} or {@code limit}
 * @param metric  what the number is ("events/s", "rows/s")
 * @param median  the median of {@code runs}
 * @param min     the smallest run
 * @param max     the largest run
 * @param runs    every run's value, in the order measured
 */
public record Measurement(String subject, String role, String metric, double median, double min, double max,
                          double[] runs) {

    /** Summarises {@code runs} (at least one). */
    public static Measurement of(final String subject, final String role, final String metric, final double... runs) {
        if (runs.length == 0) {
            throw new IllegalArgumentException("no runs for " + subject + " " + metric);
        }
        final double[] sorted = runs.clone();
        Arrays.sort(sorted);
        final int n = sorted.length;
        final double median = n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
        return new Measurement(subject, role, metric, median, sorted[0], sorted[n - 1], runs.clone());
    }
}
