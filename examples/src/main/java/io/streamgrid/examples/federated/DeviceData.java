package io.streamgrid.examples.federated;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Synthetic, non-IID examples of a federation, deterministic by seed: the features of a label's
 * examples are normal around that label's mean (unit variance; the means drawn once per federation),
 * so logistic regression is the right model; each device's share of positive labels is drawn from
 * Beta(α, α) — the two-label Dirichlet label skew: small α gives devices that see almost one label
 * only — and its example count from 20 to 2 × {@code meanSamples} − 20, uniformly.
 */
public final class DeviceData {
    /** The spread of the labels' means per feature: small enough that one feature alone decides little. */
    private static final double SEPARATION = 0.2;
    private final long seed;
    private final int dimensions;
    private final double alpha;
    private final int meanSamples;
    private final double[][] means;

    public DeviceData(final long seed, final int dimensions, final double alpha, final int meanSamples) {
        if (dimensions < 2 || !(alpha > 0) || meanSamples < 21) {
            throw new IllegalArgumentException("need at least 2 dimensions, α > 0 and a mean of more than 20 examples; were "
                    + dimensions + ", " + alpha + ", " + meanSamples);
        }
        this.seed = seed;
        this.dimensions = dimensions;
        this.alpha = alpha;
        this.meanSamples = meanSamples;
        final SplittableRandom random = new SplittableRandom(seed);
        means = new double[2][dimensions];
        for (int label = 0; label < 2; label++) {
            for (int d = 1; d < dimensions; d++) {
                means[label][d] = gaussian(random) * SEPARATION;
            }
        }
    }

    /** Device {@code device}'s examples: the same on every call. */
    public List<LocalExample> of(final long device) {
        final SplittableRandom random = new SplittableRandom(seed * 1_000_003 + device + 1);
        final double positives = beta(random, alpha);
        final int count = 20 + random.nextInt(2 * (meanSamples - 20) + 1);
        final List<LocalExample> examples = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            examples.add(example(random, random.nextDouble() < positives));
        }
        return examples;
    }

    /** Examples of both labels alike, as a population would give them: to measure a model on. */
    public List<LocalExample> heldOut(final int count) {
        final SplittableRandom random = new SplittableRandom(~seed);
        final List<LocalExample> examples = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            examples.add(example(random, random.nextBoolean()));
        }
        return examples;
    }

    private LocalExample example(final SplittableRandom random, final boolean label) {
        final double[] features = new double[dimensions];
        features[0] = 1;
        final double[] mean = means[label ? 1 : 0];
        for (int d = 1; d < dimensions; d++) {
            features[d] = mean[d] + gaussian(random);
        }
        return new LocalExample(features, label);
    }

    /** Beta(α, α) as X / (X + Y) of two Gamma(α) draws. */
    private static double beta(final SplittableRandom random, final double alpha) {
        final double x = gamma(random, alpha);
        final double y = gamma(random, alpha);
        return x + y == 0 ? 0.5 : x / (x + y);
    }

    /** Gamma(shape, 1) by Marsaglia and Tsang; below shape 1 through Gamma(shape + 1) × U^(1/shape). */
    private static double gamma(final SplittableRandom random, final double shape) {
        if (shape < 1) {
            return gamma(random, shape + 1) * Math.pow(random.nextDouble(), 1 / shape);
        }
        final double d = shape - 1.0 / 3;
        final double c = 1 / Math.sqrt(9 * d);
        while (true) {
            double x;
            double v;
            do {
                x = gaussian(random);
                v = 1 + c * x;
            } while (v <= 0);
            v = v * v * v;
            final double u = random.nextDouble();
            if (Math.log(u) < 0.5 * x * x + d - d * v + d * Math.log(v)) {
                return d * v;
            }
        }
    }

    /** How a federation's data is drawn: a seed, the label skew α and the mean examples per device. */
    public record Spec(long seed, double alpha, int meanSamples) {
        public DeviceData devices(final int dimensions) {
            return new DeviceData(seed, dimensions, alpha, meanSamples);
        }

        String format() {
            return seed + "," + alpha + "," + meanSamples;
        }

        /** @throws IllegalArgumentException when {@code text} is not seed,alpha,mean-samples */
        static Spec parse(final String text) {
            final String[] parts = text.split(",");
            try {
                if (parts.length == 3) {
                    return new Spec(Long.parseLong(parts[0]), Double.parseDouble(parts[1]), Integer.parseInt(parts[2]));
                }
            } catch (final NumberFormatException e) {
                // reported below
            }
            throw new IllegalArgumentException("devices' data is seed,alpha,mean-samples; was " + text);
        }
    }

    static double gaussian(final SplittableRandom random) {
        final double u = 1 - random.nextDouble();
        final double v = random.nextDouble();
        return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
    }
}
