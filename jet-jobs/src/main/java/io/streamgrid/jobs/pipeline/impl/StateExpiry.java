package io.streamgrid.jobs.pipeline.impl;

/**
 * A keyed job's state time-to-live ({@code KeyedJob.Builder.stateTtl}), in event time: a key's state
 * expires once the partition's watermark has passed the time it was last written by the TTL. The
 * function sees an expired state as none at the key's next event or timer ({@link #check}, what
 * decides every result), and {@link #sweep} frees the memory of keys left with nothing — when it runs
 * changes no result, so its schedule is not in snapshots; the write times are (with each key's state).
 * In processing time ({@code stateTtlInProcessingTime}) the clock is the member's wall clock instead
 * of the watermark, for the write times, the checks and the sweeps alike.
 */
final class StateExpiry {
    private final long ttlMs;
    private final boolean processingTime;
    /** The time (watermark, or wall clock) at or after which the next sweep runs. */
    private long nextSweep = Long.MIN_VALUE;

    /** {@code ttlMs}: 0 turns expiry off. */
    StateExpiry(final long ttlMs, final boolean processingTime) {
        this.ttlMs = ttlMs;
        this.processingTime = processingTime;
    }

    boolean enabled() {
        return ttlMs > 0;
    }

    /** Clears {@code entry}'s state if it expired at {@code watermark} (in processing time: now). */
    void check(final KeyEntry<?> entry, final long watermark) {
        if (ttlMs <= 0 || entry.state == null) {
            return;
        }
        final long now = processingTime ? System.currentTimeMillis() : watermark;
        if (now != Long.MIN_VALUE && entry.stateWrittenAt + ttlMs <= now) {
            entry.state = null;
        }
    }

    /** {@code entry}'s state was written at event time {@code time} (in processing time: now). */
    void written(final KeyEntry<?> entry, final long time) {
        entry.stateWrittenAt = processingTime ? System.currentTimeMillis() : time;
    }

    /** An event-time TTL's sweep, when the watermark moved: see {@link #sweep(KeyTable, long)}. */
    <S> void onWatermark(final KeyTable<S> keys, final long watermark) {
        if (!processingTime) {
            sweep(keys, watermark);
        }
    }

    /** A processing-time TTL's sweep, on the wall clock's progress: see {@link #sweep(KeyTable, long)}. */
    <S> void onWallClock(final KeyTable<S> keys, final long now) {
        if (processingTime) {
            sweep(keys, now);
        }
    }

    /** When the clock has moved a TTL since the last sweep: clears every expired state and drops keys left with nothing. */
    private <S> void sweep(final KeyTable<S> keys, final long watermark) {
        if (ttlMs <= 0 || watermark < nextSweep || watermark == Long.MIN_VALUE) {
            return;
        }
        nextSweep = watermark == Long.MAX_VALUE ? Long.MAX_VALUE : watermark + ttlMs;
        for (final KeyEntry<S> entry : keys.entries()) {
            check(entry, watermark);
            keys.settle(entry);
        }
    }
}
