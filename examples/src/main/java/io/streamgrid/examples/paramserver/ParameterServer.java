package io.streamgrid.examples.paramserver;

import java.util.Map;

/** Reading a model the parameter server trains: its weights assembled from the published shards. */
public final class ParameterServer {
    private ParameterServer() {
    }

    /** The model's weights from {@code shards} (the shard map's entries); a shard not published yet: zeros. */
    public static double[] weights(final ParameterModel model, final Map<Long, ShardValue> shards) {
        final double[] weights = new double[model.features()];
        shards.values().forEach(shard -> {
            final double[] slots = shard.weights();
            for (int slot = 0; slot < slots.length; slot++) {
                final int feature = model.featureOf((int) shard.shard(), slot);
                if (feature < weights.length) {
                    weights[feature] = slots[slot];
                }
            }
        });
        return weights;
    }

    /**
     * A worker adopts {@code value} as its copy of that shard: each slot's weight, less the worker's
     * own steps not pushed yet ({@code pending}, by feature, at the learning rate), which stay in it.
     */
    public static void adopt(final ParameterModel model, final ShardValue value, final double[] weights, final double[] pending) {
        final double[] slots = value.weights();
        for (int slot = 0; slot < slots.length; slot++) {
            final int feature = model.featureOf((int) value.shard(), slot);
            if (feature < model.features()) {
                weights[feature] = slots[slot] - model.learningRate() * pending[feature];
            }
        }
    }

    /**
     * The staleness bucket ({@link ShardValue#bucketOf}) at or below which {@code fraction} of the
     * updates counted in {@code counts} were, or -1 when none were counted.
     */
    public static int stalenessBucketAt(final long[] counts, final double fraction) {
        long total = 0;
        for (final long count : counts) {
            total += count;
        }
        long seen = 0;
        for (int bucket = 0; bucket < counts.length && total > 0; bucket++) {
            seen += counts[bucket];
            if (seen >= Math.ceil(total * fraction)) {
                return bucket;
            }
        }
        return -1;
    }

    /** Updates applied across {@code shards} by staleness bucket ({@link ShardValue#bucketOf}). */
    public static long[] stalenessCounts(final Map<Long, ShardValue> shards) {
        final long[] counts = new long[ShardValue.STALENESS_BUCKETS];
        shards.values().forEach(shard -> {
            for (int tau = 0; tau < counts.length; tau++) {
                counts[tau] += shard.stalenessCounts()[tau];
            }
        });
        return counts;
    }
}
