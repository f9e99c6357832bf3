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
