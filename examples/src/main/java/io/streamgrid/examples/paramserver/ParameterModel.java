package io.streamgrid.examples.paramserver;

import java.io.Serializable;
import java.util.Objects;

/**
 * A logistic-regression model trained through the parameter server: its name, how many hashed
 * binary features it has (feature 0 is the bias, present in every example) and how they are
 * sharded — feature {@code f} lives in shard {@code f % shards} at slot {@code f / shards} — and
 * how it is trained: the learning rate, how the server weighs stale updates, how often a worker
 * fetches the shards (every {@code fetchEvery} of its steps) and pushes what it learnt
 * ({@code pushEvery}), how many workers there may be (worker ids 0 to {@code maxWorkers − 1}), and
 * how often the server publishes a shard that changed ({@code publishEveryMs}: every update would
 * send each member's replica a whole shard per update — at tens of thousands a second their
 * entry events fall seconds behind, and so do the workers' copies).
 *
 * <p>A shard's slot travels in two bytes of an update, so a shard holds at most
 * {@value #MAX_SHARD_WIDTH} features.
 */
public record ParameterModel(String name, int features, int shards, int maxWorkers, double learningRate, Staleness staleness,
                             int fetchEvery, int pushEvery, long publishEveryMs) implements Serializable {
    /** How often a changed shard is published unless said otherwise. */
    public static final long DEFAULT_PUBLISH_EVERY_MS = 10;
    /** The most features of one shard: a slot is two bytes in an update. */
    public static final int MAX_SHARD_WIDTH = 65_536;

    /** A model whose shards are published every {@value #DEFAULT_PUBLISH_EVERY_MS} ms when they changed. */
    public ParameterModel(final String name, final int features, final int shards, final int maxWorkers, final double learningRate,
                          final Staleness staleness, final int fetchEvery, final int pushEvery) {
        this(name, features, shards, maxWorkers, learningRate, staleness, fetchEvery, pushEvery, DEFAULT_PUBLISH_EVERY_MS);
    }

    public ParameterModel {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(staleness, "staleness");
        if (name.isEmpty() || name.length() > 32 || features < 2 || shards < 1 || shards > features || maxWorkers < 1
                || !(learningRate > 0) || fetchEvery < 1 || pushEvery < 1 || publishEveryMs < 1) {
            throw new IllegalArgumentException("a model needs a name of 1 to 32 characters, at least 2 features, 1 to features "
                    + "shards, at least 1 worker, a positive learning rate, fetch and push intervals of at least 1 step and a publish "
                    + "interval of at least 1 ms; were " + name + ", " + features + ", " + shards + ", " + maxWorkers + ", "
                    + learningRate + ", " + fetchEvery + ", " + pushEvery + ", " + publishEveryMs);
        }
        if (width(features, shards) > MAX_SHARD_WIDTH) {
            throw new IllegalArgumentException(features + " features in " + shards + " shards make shards of " + width(features, shards)
                    + " features; at most " + MAX_SHARD_WIDTH + " fit an update's slot: use at least "
                    + (features + MAX_SHARD_WIDTH - 1) / MAX_SHARD_WIDTH + " shards");
        }
    }

    /** The map of the model's shards (key: the shard, a Long; value: {@link ShardValue}), read by workers from their member's replica. */
    public String shardsMap() {
        return "dim.ps." + name;
    }

    /** The map of scores (key: the request, a Long; value: {@link Score}) written by {@link ScoringJob}. */
    public String scoresMap() {
        return "state.ps-scores." + name;
    }

    /** The map of the workers' progress (key: the worker, a Long; value: {@link WorkerProgress}). */
    public String workersMap() {
        return "state.ps-workers." + name;
    }

    public int shardOf(final int feature) {
        return feature % shards;
    }

    public int slotOf(final int feature) {
        return feature / shards;
    }

    /** Feature slots per shard (the last ones of a shard may lie beyond {@link #features()}: always zero). */
    public int shardWidth() {
        return width(features, shards);
    }

    public int featureOf(final int shard, final int slot) {
        return slot * shards + shard;
    }

    private static int width(final int features, final int shards) {
        return (features + shards - 1) / shards;
    }
}
