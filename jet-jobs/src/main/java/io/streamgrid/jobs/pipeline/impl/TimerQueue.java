package io.streamgrid.jobs.pipeline.impl;

import java.util.Arrays;

/**
 * The timers of a partition's keys in firing order: a binary min-heap of (time, registration
 * sequence, entry). The sequence breaks ties, and is kept in snapshots, so timers of equal time fire
 * in the same order on every replay. Deleting a timer or a key leaves its heap element stale; it is
 * skipped when it comes up (the entry no longer holds that timer), and the heap is rebuilt when
 * stale elements outnumber live ones.
 */
final class TimerQueue {
    private long[] times = new long[64];
    private long[] sequences = new long[64];
    private KeyEntry<?>[] entries = new KeyEntry<?>[64];
    private int size;
    private int stale;

    int size() {
        return size;
    }

    void clear() {
        Arrays.fill(entries, 0, size, null);
        size = 0;
        stale = 0;
    }

    void add(final long time, final long sequence, final KeyEntry<?> entry) {
        if (size == times.length) {
            times = Arrays.copyOf(times, size * 2);
            sequences = Arrays.copyOf(sequences, size * 2);
            entries = Arrays.copyOf(entries, size * 2);
        }
        int i = size++;
        while (i > 0) {
            final int parent = (i - 1) >>> 1;
            if (!less(time, sequence, times[parent], sequences[parent])) {
                break;
            }
            move(parent, i);
            i = parent;
        }
        set(i, time, sequence, entry);
    }

    /** Time of the earliest element (maybe stale); only when {@link #size()} is positive. */
    long peekTime() {
        return times[0];
    }

    long peekSequence() {
        return sequences[0];
    }

    KeyEntry<?> peekEntry() {
        return entries[0];
    }

    void poll() {
        final int last = --size;
        final long time = times[last];
        final long sequence = sequences[last];
        final KeyEntry<?> entry = entries[last];
        entries[last] = null;
        if (last == 0) {
            return;
        }
        int i = 0;
        while (true) {
            final int left = 2 * i + 1;
            if (left >= last) {
                break;
            }
            final int right = left + 1;
            final int child = right < last && less(times[right], sequences[right], times[left], sequences[left]) ? right : left;
            if (!less(times[child], sequences[child], time, sequence)) {
                break;
            }
            move(child, i);
            i = child;
        }
        set(i, time, sequence, entry);
    }

    /** One element became stale; returns whether stale ones now outnumber live ones (time to rebuild). */
    boolean markStale() {
        stale++;
        return stale > 1024 && stale > size / 2;
    }

    private static boolean less(final long time, final long sequence, final long otherTime, final long otherSequence) {
        return time < otherTime || time == otherTime && sequence < otherSequence;
    }

    private void move(final int from, final int to) {
        set(to, times[from], sequences[from], entries[from]);
    }

    private void set(final int i, final long time, final long sequence, final KeyEntry<?> entry) {
        times[i] = time;
        sequences[i] = sequence;
        entries[i] = entry;
    }
}
