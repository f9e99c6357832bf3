package io.streamgrid.jobs.pipeline.impl;

import java.util.Arrays;

/**
 * One key of a keyed job's partition: its state and timers. Exists while it has either (it is
 * dropped when a call leaves it with neither; a timer queue's stale node may still point at a
 * dropped entry, and finds no timer in it).
 *
 * <p>Timers are kept flat in a {@code long[]}, two longs each: time and registration sequence,
 * unsorted — keys have few timers. These are the truth; a {@link TimerQueue}'s node for a timer
 * no longer here is stale.
 */
final class KeyEntry<S> {
    static final int WIDTH = 2;
    private static final long[] NONE = new long[0];

    final long longKey;
    /** UTF-8 bytes of a string key; null for a long key. */
    final byte[] keyBytes;
    final String stringKey;
    final long hash;
    S state;
    /** The event time {@link #state} was last written at (for a state time-to-live; in snapshots with the state). */
    long stateWrittenAt = Long.MIN_VALUE;
    long[] timers = NONE;
    int timerCount;
    long[] processingTimers = NONE;
    int processingTimerCount;
    /** This key's node in the event-time and the processing-time {@link TimerQueue}, or -1. */
    int eventNode = -1;
    int processingNode = -1;
    /** Whether its {@link KeyTable} holds it: a key met for the first time is not, until it keeps something. */
    boolean inTable;

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

    /** The slot of the timer at {@code time} among {@code count} in {@code timers}, or -1. */
    static int find(final long[] timers, final int count, final long time) {
        for (int slot = 0; slot < count; slot++) {
            if (timers[WIDTH * slot] == time) {
                return slot;
            }
        }
        return -1;
    }

    /** {@code timers} with room for one more timer after {@code count}. */
    static long[] withRoom(final long[] timers, final int count) {
        return WIDTH * (count + 1) <= timers.length ? timers : Arrays.copyOf(timers, Math.max(2 * WIDTH, timers.length * 2));
    }
}
