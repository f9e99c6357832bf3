package io.streamgrid.examples.paramserver;

import java.util.List;

/**
 * One pass of plain SGD over examples in their order, in one thread: the reference the parameter
 * server is held to (its tests and demo compare with it; the benchmark times it).
 */
public final class OfflineSgd {
    private OfflineSgd() {
    }

    /** The weights after one step per example at {@code learningRate}, from zero; the bias (feature 0) in every step. */
    public static double[] weights(final int features, final double learningRate, final List<LabelledExample> examples) {
        final double[] weights = new double[features];
        int[] withBias = new int[16];
        for (final LabelledExample example : examples) {
            final int[] active = example.features();
            if (active.length + 1 > withBias.length) {
                withBias = new int[active.length + 1];
            }
            System.arraycopy(active, 0, withBias, 1, active.length);
            final int count = active.length + 1;
            final double gradient = LogisticRegression.predict(weights, withBias, count) - (example.label() ? 1 : 0);
            for (int i = 0; i < count; i++) {
                weights[withBias[i]] -= learningRate * gradient;
            }
        }
        return weights;
    }
}
