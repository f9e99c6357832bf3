package io.streamgrid.examples.paramserver;

import java.util.List;

/** Logistic regression over binary features (feature 0, the bias, in every example). */
public final class LogisticRegression {
    private LogisticRegression() {
    }

    /** The probability of a positive label: σ of the sum of the weights of the example's features. */
    public static double predict(final double[] weights, final int[] features, final int count) {
        return predict(weights, features, 0, count);
    }

    /** {@link #predict(double[], int[], int)} over the features {@code features[from, from + count)}. */
    public static double predict(final double[] weights, final int[] features, final int from, final int count) {
        double margin = 0;
        for (int i = from; i < from + count; i++) {
            margin += weights[features[i]];
        }
        return 1.0 / (1.0 + Math.exp(-margin));
    }

    /** The mean logistic loss of {@code weights} over {@code examples} (lower is better; 0.693 is a coin toss). */
    public static double logLoss(final double[] weights, final List<LabelledExample> examples) {
        double sum = 0;
        for (final LabelledExample example : examples) {
            final int[] withBias = example.withBias();
            final double p = Math.min(Math.max(predict(weights, withBias, withBias.length), 1e-15), 1 - 1e-15);
            sum -= example.label() ? Math.log(p) : Math.log(1 - p);
        }
        return sum / examples.size();
    }
}
