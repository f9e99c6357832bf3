package io.streamgrid.examples.paramserver;

/**
 * A shard of a model as the server published it: its weights (by slot, {@link ParameterModel}) after
 * {@code version} updates, how many of each worker's updates those include ({@code appliedByWorker},
 * by worker id), how stale the updates it took were ({@code stalenessCounts[bucketOf(τ)]}:
 * staleness 0 to 31 each in its own bucket, then one bucket per power of two), and in synchronous
 * training ({@link Staleness#SYNCHRONOUS}) how many rounds it took from every worker ({@code round};
 * 0 in asynchronous training).
 */
public record ShardValue(long shard, long version, double[] weights, long[] appliedByWorker, long[] stalenessCounts, long round) {
    public static final int STALENESS_BUCKETS = 64;
    private static final int EXACT = 32;

    /**
     * How many updates of other workers a shard at {@code version}, holding {@code ownApplied} of one
     * worker's updates, took since that worker's copy of it — fetched at version {@code base} holding
     * {@code ownInBase} of its own: everything applied since, less the worker's own. The server's
     * staleness of the worker's update, and for a worker whether a fetched shard is worth adopting.
     */
    public static long othersSince(final long version, final long ownApplied, final long base, final long ownInBase) {
        return (version - base) - (ownApplied - ownInBase);
    }

    /** The bucket of staleness {@code tau} (≥ 0): itself below 32, else 32 + log2(τ) − 5 (at most 63). */
    public static int bucketOf(final long tau) {
        if (tau < EXACT) {
            return (int) tau;
        }
        final int log2 = 63 - Long.numberOfLeadingZeros(tau);
        return Math.min(STALENESS_BUCKETS - 1, EXACT + log2 - 5);
    }

    /** The smallest staleness of {@code bucket}. */
    public static long lowestStalenessOf(final int bucket) {
        return bucket < EXACT ? bucket : 1L << (bucket - EXACT + 5);
    }
}
