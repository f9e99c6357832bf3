package io.streamgrid.examples.paramserver;

/**
 * A shard of a model as the server published it: its weights (by slot, {@link ParameterModel}) after
 * {@code version} updates, how many of each worker's updates those include ({@code appliedByWorker},
 * by worker id), and how stale the updates it took were ({@code stalenessCounts[τ]}: updates of
 * staleness τ, the last entry counting every τ at or above it).
 */
public record ShardValue(long shard, long version, double[] weights, long[] appliedByWorker, long[] stalenessCounts) {
    /** Staleness counted exactly up to this; beyond, in the last entry. */
    public static final int STALENESS_BUCKETS = 64;
}
