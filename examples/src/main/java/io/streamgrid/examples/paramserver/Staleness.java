package io.streamgrid.examples.paramserver;

/**
 * How workers' updates meet the model: asynchronously, the server weighing an update computed from
 * a model {@code τ} versions behind the shard it is applied to (τ: updates of other workers the
 * shard took since the worker's copy of it) — or synchronously, the baseline asynchronous SGD is
 * measured against, where no update is stale.
 */
public enum Staleness {
    /** Plain asynchronous SGD (Downpour): every update at the full learning rate, however stale. */
    IGNORED,
    /**
     * Staleness-aware asynchronous SGD (Zhang et al., IJCAI 2016): the learning rate divided by τ
     * (an update of τ = 0 or 1 at the full rate).
     */
    DIVIDES_RATE,
    /**
     * Synchronous SGD, the baseline: training goes in rounds of {@code pushEvery} steps per worker.
     * Each worker starts a round from the model of the last round, pushes what it learnt in it to
     * every shard and waits — holding the examples that come meanwhile — until every shard took the
     * round of every worker; the server applies a round at once (its workers' gradients in worker
     * order, at the full learning rate) when the last worker's update of it arrives. No update is
     * stale (τ = 0), and the model depends on the examples only, never on timing. Every worker id
     * from 0 to {@link ParameterModel#maxWorkers()} − 1 must have examples: the others wait for each.
     */
    SYNCHRONOUS;

    /** The factor of the learning rate for an update {@code tau} versions stale. */
    public double rateFactor(final long tau) {
        return this == DIVIDES_RATE && tau > 1 ? 1.0 / tau : 1.0;
    }

    /** Whether the workers wait for each other at every push. */
    public boolean synchronous() {
        return this == SYNCHRONOUS;
    }
}
