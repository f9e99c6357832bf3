package io.streamgrid.jobs.window.impl;

import io.streamgrid.jobs.window.WindowAggregation;

import java.util.ArrayDeque;

/**
 * Accumulators an engine no longer references, emptied by {@link WindowAggregation#reset} and handed
 * out again in place of new ones. A sliding window's slices die as fast as they are made, with an
 * accumulator per key each: in the exactly-once benchmark (10,000 keys, 500 slices a window) that
 * was 120 MB a second of accumulators living just long enough for every young collection to copy
 * them into the old generation. With an aggregation that cannot reset, every call makes a new one.
 * Single-threaded, like the engine.
 */
final class SpareAccumulators<A> {
    /** After a burst (a watermark jump dropping many slices at once) the rest go to the collector. */
    private static final int MAX_SPARES = 1 << 16;

    private final WindowAggregation<A> aggregation;
    private final boolean reuses;
    private final ArrayDeque<A> spares = new ArrayDeque<>();

    SpareAccumulators(final WindowAggregation<A> aggregation) {
        this.aggregation = aggregation;
        this.reuses = aggregation.reset(aggregation.create());
    }

    /** Whether {@link #give} keeps anything: the caller can skip visiting what it drops when not. */
    boolean reuses() {
        return reuses;
    }

    /** An empty accumulator: a spare one when there is one, else a new one. */
    A take() {
        final A spare = spares.poll();
        return spare != null ? spare : aggregation.create();
    }

    /** Keeps {@code accumulator} for {@link #take}; the caller must hold no reference to it any more. */
    void give(final A accumulator) {
        if (reuses && spares.size() < MAX_SPARES && aggregation.reset(accumulator)) {
            spares.push(accumulator);
        }
    }
}
