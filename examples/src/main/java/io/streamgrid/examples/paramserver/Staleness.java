package io.streamgrid.examples.paramserver;

/**
 * How the server weighs an update computed from a model {@code τ} versions behind the shard it is
 * applied to (τ: updates of other workers the shard took since the worker's copy of it).
 */
public enum Staleness {
    /** Plain asynchronous SGD (Downpour): every update at the full learning rate, however stale. */
    IGNORED,
    /**
     * Staleness-aware asynchronous SGD (Zhang et al., IJCAI 2016): the learning rate divided by τ
     * (an update of τ = 0 or 1 at the full rate).
     */
    DIVIDES_RATE;

    /** The factor of the learning rate for an update {@code tau} versions stale. */
    public double rateFactor(final long tau) {
        return this == DIVIDES_RATE && tau > 1 ? 1.0 / tau : 1.0;
    }
}
