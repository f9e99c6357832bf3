package io.streamgrid.jobs.pipeline.impl;

/**
 * A keyed job's state time-to-live ({@code KeyedJob.Builder.stateTtl}), in event time: a key's state
 * expires once the partition's watermark has passed the time it was last written by the TTL. The
 * function sees an expired state as none at the key's next event or timer ({@link #check}, what
 * decides every result), and {@link #sweep} frees the memory of keys left with nothing — when it runs
 * changes no result, so its schedule is not in snapshots; the write times are (with each key's state).
 */
final class StateExpiry {
    private final long ttlMs;
    /** The watermark at or after which the next sweep runs. */
    private long nextSweep = Long.MIN_VALUE;

    /** {@code ttlMs}: 0 turns expiry off. */
    StateExpiry(final long ttlMs) {
        this.ttlMs = ttlMs;
    }

    boolean enabled() {
        return ttlMs > 0;
    }

    /** Clears {@code entry}'s state if it expired at {@code watermark}. */
    void check(final KeyEntry<?> entry, final long watermark) {
        if (ttlMs > 0 && entry.state != null && watermark != Long.MIN_VALUE && entry.stateWrittenAt + ttlMs <= watermark) {
            entry.state = null;
        }
    }

    /** {@code entry}'s state was written at event time {@code time}. */
    void written(final KeyEntry<?> entry, final long time) {
        entry.stateWrittenAt = time;
    }

    /** When the watermark has moved a TTL since the last sweep: clears every expired state and drops keys left with nothing. */
    <S> void sweep(final KeyTable<S> keys, final long watermark) {
        if (ttlMs <= 0 || watermark < nextSweep || watermark == Long.MIN_VALUE) {
            return;
        }
        nextSweep = watermark == Long.MAX_VALUE ? Long.MAX_VALUE : watermark + ttlMs;
        for (final KeyEntry<S> entry : keys.entries()) {
            check(entry, watermark);
            keys.dropIfEmpty(entry);
        }
    }
}
