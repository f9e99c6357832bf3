package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.KeyPartitions;
import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * The part of a {@link GeneratorSpec} both generators share: when event {@code i} arrives, its
 * event time (disorder, lateness) and its key (Zipf, hot keys). It draws from the generator's own
 * random source, so the generator's sequence stays one deterministic stream.
 */
final class ArrivalModel {
    private final GeneratorSpec spec;
    private final SplittableRandom random;
    private final double[] zipfCdf;

    ArrivalModel(final GeneratorSpec spec, final SplittableRandom random) {
        this.spec = spec;
        this.random = random;
        this.zipfCdf = spec.zipfExponent() > 0 ? zipfCdf(spec.keys(), spec.zipfExponent()) : null;
    }

    long arrival(final long i) {
        return spec.arrival(i);
    }

    long timestamp(final long arrival) {
        long timestamp = arrival - (spec.maxDisorderMs() == 0 ? 0 : random.nextLong(spec.maxDisorderMs() + 1));
        if (spec.lateFraction() > 0 && random.nextDouble() < spec.lateFraction()) {
            timestamp = arrival - spec.maxDisorderMs() - 1 - random.nextLong(spec.maxLatenessMs());
        }
        return Math.max(0, timestamp);
    }

    int keyIndex(final long arrival) {
        if (spec.hotKeyFraction() > 0 && random.nextDouble() < spec.hotKeyFraction()) {
            final long period = arrival / spec.hotKeyPeriodMs();
            return (int) Math.floorMod(KeyPartitions.mix(spec.seed() ^ period), (long) spec.keys());
        }
        if (zipfCdf == null) {
            return random.nextInt(spec.keys());
        }
        final int index = Arrays.binarySearch(zipfCdf, random.nextDouble());
        return Math.min(spec.keys() - 1, index >= 0 ? index : -index - 1);
    }

    private static double[] zipfCdf(final int n, final double exponent) {
        final double[] cdf = new double[n];
        double sum = 0;
        for (int k = 0; k < n; k++) {
            sum += 1.0 / Math.pow(k + 1, exponent);
            cdf[k] = sum;
        }
        for (int k = 0; k < n; k++) {
            cdf[k] /= sum;
        }
        return cdf;
    }
}
