package io.streamgrid.examples.fraud;

/**
 * A payment's features as the scoring job computes them from the user's earlier payments (those
 * processed before it, in the user's log order, whose event time lies within the window before the
 * payment's own, both ends included), and the model's input vector made from them.
 *
 * @param amount           the payment's amount
 * @param avgAmount1h      the mean amount of the user's earlier payments in the hour up to it; 0 when none
 * @param count10m         how many earlier payments of the user fall in the 10 minutes up to it
 * @param sincePreviousMs  event time since the user's previous payment (floored at 0); -1 for the first
 * @param merchantCategory 0–{@value #CATEGORIES}-1; others set no category input
 */
public record Features(double amount, double avgAmount1h, int count10m, long sincePreviousMs, int merchantCategory) {
    public static final int CATEGORIES = 8;
    /** Inputs of the model: bias, amount, amount against the hour's mean, 10-minute count, time since previous, category one-hot. */
    public static final int DIMENSIONS = 5 + CATEGORIES;
    public static final long HOUR_MS = 3_600_000;
    public static final long TEN_MINUTES_MS = 600_000;
    private static final long DAY_MS = 86_400_000;

    /** The model's input vector into {@code x} (of {@link #DIMENSIONS}), each input scaled to about 0–1. */
    public void vector(final double[] x) {
        java.util.Arrays.fill(x, 0);
        x[0] = 1;
        x[1] = amount / 1_000;
        x[2] = avgAmount1h > 0 ? Math.min(amount / avgAmount1h, 10) / 10 : 0.1;
        x[3] = Math.min(count10m, 20) / 20.0;
        x[4] = sincePreviousMs < 0 ? 1 : Math.min(sincePreviousMs, DAY_MS) / (double) DAY_MS;
        if (merchantCategory >= 0 && merchantCategory < CATEGORIES) {
            x[5 + merchantCategory] = 1;
        }
    }
}
