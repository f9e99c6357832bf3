package io.streamgrid.jobs.pipeline.impl;

import java.util.Arrays;

/**
 * One key of a keyed job's partition: its state and timers. Exists while it has either; a removed
 * entry is marked dead so that timers still queued for it are skipped.
 */
final class KeyEntry<S> {
    final long longKey;
    /** UTF-8 bytes of a string key; null for a long key. */
    final byte[] keyBytes;
    final String stringKey;
    final long hash;
    S state;
    boolean live = true;
    /** Event-time timers: time and registration sequence, unsorted (keys have few). */
    long[] timers = NONE;
    int timerCount;
    long[] processingTimers = NONE;
    int processingTimerCount;

    private static final long[] NONE = new long[0];

    KeyEntry(final long longKey) {
        this.longKey = longKey;
        this.keyBytes = null;
        this.stringKey = null;
        this.hash = longKey;
    }

    KeyEntry(final byte[] keyBytes, final String stringKey, final long hash) {
        this.longKey = 0;
        this.keyBytes = keyBytes;
        this.stringKey = stringKey;
        this.hash = hash;
    }

    boolean isEmpty() {
        return state == null && timerCount == 0 && processingTimerCount == 0;
    }

    /** Index of the pair (time, seq) with {@code time} in {@code times}, or -1. Pairs are stored flat. */
    static int find(final long[] times, final int count, final long time) {
        for (int i = 0; i < count; i++) {
            if (times[2 * i] == time) {
                return i;
            }
        }
        return -1;
    }

    static long[] add(final long[] times, final int count, final long time, final long sequence) {
        final long[] target = 2 * count + 2 <= times.length ? times : Arrays.copyOf(times, Math.max(4, times.length * 2));
        target[2 * count] = time;
        target[2 * count + 1] = sequence;
        return target;
    }

    /** Removes pair {@code index} by moving the last pair into its place. */
    static void removeAt(final long[] times, final int count, final int index) {
        times[2 * index] = times[2 * (count - 1)];
        times[2 * index + 1] = times[2 * (count - 1) + 1];
    }
}
