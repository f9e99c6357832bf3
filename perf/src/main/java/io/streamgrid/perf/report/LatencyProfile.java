package io.streamgrid.perf.report;

import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.function.DoubleUnaryOperator;

/**
 * A latency distribution of one subject in one phase, in microseconds, with the percentile curve
 * the chart is drawn from.
 *
 * @param subject   what was measured
 * @param phase     the phase or load ("steady", "10k updates/s", "sampled")
 * @param rate      the scheduled rate in operations per second; 0 when not open-loop (JMH samples)
 * @param count     recorded values
 * @param lost      operations that should have produced a value but did not (deliveries never seen)
 * @param p50Us     median
 * @param p99Us     99th percentile
 * @param p999Us    99.9th percentile
 * @param maxUs     largest value
 * @param curve     pairs {@code [percentile, microseconds]} from 0 to 99.99 %
 */
public record LatencyProfile(String subject, String phase, double rate, long count, long lost, double p50Us, double p99Us,
                             double p999Us, double maxUs, List<double[]> curve) {

    private static final double[] CURVE_PERCENTILES = {
        0, 10, 20, 30, 40, 50, 60, 70, 75, 80, 85, 90, 92.5, 95, 96, 97, 98, 99, 99.25, 99.5, 99.75, 99.9, 99.95, 99.99};

    public LatencyProfile {
        curve = List.copyOf(curve);
    }

    /** From a histogram of nanoseconds. */
    public static LatencyProfile ofNanos(final String subject, final String phase, final double rate,
                                         final Histogram nanos, final long lost) {
        return ofPercentiles(subject, phase, rate, nanos.getTotalCount(), lost,
                p -> p >= 100 ? nanos.getMaxValue() : nanos.getValueAtPercentile(p));
    }

    /** From a function of percentile (0 to 100) to nanoseconds; 100 is the maximum. */
    public static LatencyProfile ofPercentiles(final String subject, final String phase, final double rate, final long count,
                                               final long lost, final DoubleUnaryOperator nanosAtPercentile) {
        final List<double[]> curve = new ArrayList<>();
        for (final double p : CURVE_PERCENTILES) {
            curve.add(new double[] {p, nanosAtPercentile.applyAsDouble(p) / 1_000});
        }
        return new LatencyProfile(subject, phase, rate, count, lost, nanosAtPercentile.applyAsDouble(50) / 1_000,
                nanosAtPercentile.applyAsDouble(99) / 1_000, nanosAtPercentile.applyAsDouble(99.9) / 1_000,
                nanosAtPercentile.applyAsDouble(100) / 1_000, curve);
    }
}
