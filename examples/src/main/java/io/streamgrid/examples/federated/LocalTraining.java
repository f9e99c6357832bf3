package io.streamgrid.examples.federated;

import java.util.List;
import java.util.SplittableRandom;

/**
 * What a device does in a round, and what the offline check does for it: {@code localEpochs}
 * passes of SGD over its examples (each pass in an order shuffled by device and round) from the
 * global model, the difference to the global model clipped to {@code clipNorm}. Deterministic.
 */
public final class LocalTraining {
    private LocalTraining() {
    }

    /** A device's update: its (clipped) model delta and the examples it learnt from. */
    public record Update(double[] delta, long samples) {
    }

    public static Update train(final FederatedModel model, final double[] global, final List<LocalExample> examples, final long device,
                               final long round) {
        final double[] weights = global.clone();
        final int[] order = new int[examples.size()];
        for (int i = 0; i < order.length; i++) {
            order[i] = i;
        }
        final SplittableRandom random = new SplittableRandom(model.seed() ^ (device * 0x9E37_79B9_7F4A_7C15L) ^ round);
        for (int epoch = 0; epoch < model.localEpochs(); epoch++) {
            for (int i = order.length - 1; i > 0; i--) {
                final int j = random.nextInt(i + 1);
                final int swap = order[i];
                order[i] = order[j];
                order[j] = swap;
            }
            for (final int i : order) {
                step(weights, examples.get(i), model.localRate());
            }
        }
        final double[] delta = new double[weights.length];
        for (int d = 0; d < delta.length; d++) {
            delta[d] = weights[d] - global[d];
        }
        final double norm = Vectors.norm(delta);
        if (norm > model.clipNorm()) {
            final double scale = model.clipNorm() / norm;
            for (int d = 0; d < delta.length; d++) {
                delta[d] *= scale;
            }
        }
        return new Update(delta, examples.size());
    }

    /** Passes of the centralized reference over the pooled data: enough for it to have converged here. */
    public static final int POOLED_EPOCHS = 10;

    /**
     * The centralized reference — what the federation's data would give without federation: plain SGD
     * over every device's examples pooled (shuffled once by the model's seed), {@value #POOLED_EPOCHS}
     * passes at the devices' local rate, from zero.
     */
    public static double[] pooled(final FederatedModel model, final DeviceData data) {
        final List<LocalExample> pooled = new java.util.ArrayList<>();
        for (long device = 0; device < model.devices(); device++) {
            pooled.addAll(data.of(device));
        }
        java.util.Collections.shuffle(pooled, new java.util.Random(model.seed()));
        final double[] weights = new double[model.dimensions()];
        for (int epoch = 0; epoch < POOLED_EPOCHS; epoch++) {
            for (final LocalExample example : pooled) {
                step(weights, example, model.localRate());
            }
        }
        return weights;
    }

    /** One SGD step of logistic regression on {@code weights}, in place. */
    private static void step(final double[] weights, final LocalExample example, final double rate) {
        final double error = predict(weights, example.features()) - (example.label() ? 1 : 0);
        for (int d = 0; d < weights.length; d++) {
            weights[d] -= rate * error * example.features()[d];
        }
    }

    /** The probability of a positive label. */
    public static double predict(final double[] weights, final double[] features) {
        double margin = 0;
        for (int d = 0; d < weights.length; d++) {
            margin += weights[d] * features[d];
        }
        return 1 / (1 + Math.exp(-margin));
    }

    /** The mean logistic loss of {@code weights} over {@code examples}. */
    public static double logLoss(final double[] weights, final List<LocalExample> examples) {
        double sum = 0;
        for (final LocalExample example : examples) {
            final double p = Math.min(Math.max(predict(weights, example.features()), 1e-15), 1 - 1e-15);
            sum -= example.label() ? Math.log(p) : Math.log(1 - p);
        }
        return sum / examples.size();
    }

    /** The share of {@code examples} whose label {@code weights} predicts (p ≥ ½ as positive). */
    public static double accuracy(final double[] weights, final List<LocalExample> examples) {
        long right = 0;
        for (final LocalExample example : examples) {
            right += (predict(weights, example.features()) >= 0.5) == example.label() ? 1 : 0;
        }
        return (double) right / examples.size();
    }
}
