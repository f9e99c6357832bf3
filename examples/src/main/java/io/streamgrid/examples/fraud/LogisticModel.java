package io.streamgrid.examples.fraud;

/**
 * Logistic regression trained by stochastic gradient descent, one label at a time: the score is
 * {@code sigmoid(w · x)}; a label y updates {@code w_i -= rate * ((score - y) * x_i + l2 * w_i)},
 * the bias ({@code i = 0}) not regularised.
 */
public final class LogisticModel {
    private LogisticModel() {
    }

    public static double score(final double[] weights, final double[] x) {
        double dot = 0;
        for (int i = 0; i < x.length; i++) {
            dot += weights[i] * x[i];
        }
        return 1 / (1 + Math.exp(-dot));
    }

    /** One SGD step on {@code weights}, in place, for input {@code x} with label {@code fraud}. */
    public static void learn(final double[] weights, final double[] x, final boolean fraud, final double rate, final double l2) {
        final double error = score(weights, x) - (fraud ? 1 : 0);
        for (int i = 0; i < x.length; i++) {
            weights[i] -= rate * (error * x[i] + (i == 0 ? 0 : l2 * weights[i]));
        }
    }
}
