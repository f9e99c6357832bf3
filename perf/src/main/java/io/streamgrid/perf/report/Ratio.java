package io.streamgrid.perf.report;

/**
 * Ours divided by a reference, of one metric. Whether higher is better is in {@code meaning}.
 *
 * @param label   "StreamGrid / plain Jet, events/s"
 * @param value   the quotient of the two medians
 * @param meaning how to read it ("above 1: we are faster")
 */
public record Ratio(String label, double value, String meaning) {
    public static Ratio of(final String label, final double ours, final double reference, final String meaning) {
        return new Ratio(label, reference == 0 ? Double.NaN : ours / reference, meaning);
    }
}
