package io.streamgrid.jobs.pipeline.impl;

import java.util.Arrays;

/**
 * The timers of a partition's keys in firing order: an indexed binary min-heap of (time,
 * registration sequence), each element pointing at its key's entry and the timer's slot there,
 * and each timer in the entry knowing its position here — so deleting a timer is O(log n) and
 * leaves nothing stale behind. The sequence breaks ties, and is kept in snapshots, so timers of
 * equal time fire in the same order on every replay. One queue for event-time timers and one for
 * processing-time timers; {@code processing} says which of the entry's arrays this one indexes.
 */
final class TimerQueue {
    private final boolean processing;
    private long[] times = new long[64];
    private long[] sequences = new long[64];
    private KeyEntry<?>[] entries = new KeyEntry<?>[64];
    private int[] slots = new int[64];
    private int size;

    TimerQueue(final boolean processing) {
        this.processing = processing;
    }

    int size() {
        return size;
    }

    void clear() {
        Arrays.fill(entries, 0, size, null);
        size = 0;
    }

    private long[] timersOf(final KeyEntry<?> entry) {
        return processing ? entry.processingTimers : entry.timers;
    }

    /** Adds a timer at {@code time} to {@code entry} (the caller checked it has none at that time) and to the queue. */
    void add(final KeyEntry<?> entry, final long time, final long sequence) {
        final int slot;
        if (processing) {
            entry.processingTimers = KeyEntry.withRoom(entry.processingTimers, entry.processingTimerCount);
            slot = entry.processingTimerCount++;
        } else {
            entry.timers = KeyEntry.withRoom(entry.timers, entry.timerCount);
            slot = entry.timerCount++;
        }
        final long[] timers = timersOf(entry);
        timers[KeyEntry.WIDTH * slot] = time;
        timers[KeyEntry.WIDTH * slot + 1] = sequence;
        enqueue(entry, slot);
    }

    /** Removes the entry's timer in {@code slot} from the queue and from the entry. */
    void remove(final KeyEntry<?> entry, final int slot) {
        final long[] timers = timersOf(entry);
        removeAt((int) timers[KeyEntry.WIDTH * slot + 2]);
        final int last = processing ? --entry.processingTimerCount : --entry.timerCount;
        if (slot != last) {
            System.arraycopy(timers, KeyEntry.WIDTH * last, timers, KeyEntry.WIDTH * slot, KeyEntry.WIDTH);
            slots[(int) timers[KeyEntry.WIDTH * slot + 2]] = slot; // its heap element follows it
        }
    }

    /** Queues the timer already in {@code slot} of {@code entry} (after a restore). */
    void enqueue(final KeyEntry<?> entry, final int slot) {
        if (size == times.length) {
            final int capacity = size * 2;
            times = Arrays.copyOf(times, capacity);
            sequences = Arrays.copyOf(sequences, capacity);
            entries = Arrays.copyOf(entries, capacity);
            slots = Arrays.copyOf(slots, capacity);
        }
        final long[] timers = timersOf(entry);
        set(size, timers[KeyEntry.WIDTH * slot], timers[KeyEntry.WIDTH * slot + 1], entry, slot);
        siftUp(size++);
    }

    /** Time of the earliest timer; only when {@link #size()} is positive. */
    long peekTime() {
        return times[0];
    }

    KeyEntry<?> peekEntry() {
        return entries[0];
    }

    int peekSlot() {
        return slots[0];
    }

    private void removeAt(final int index) {
        final int last = --size;
        if (index != last) {
            set(index, times[last], sequences[last], entries[last], slots[last]);
            entries[last] = null;
            if (index > 0 && less(index, (index - 1) >>> 1)) {
                siftUp(index);
            } else {
                siftDown(index);
            }
        } else {
            entries[last] = null;
        }
    }

    private void siftUp(final int start) {
        int i = start;
        while (i > 0) {
            final int parent = (i - 1) >>> 1;
            if (!less(i, parent)) {
                break;
            }
            swap(i, parent);
            i = parent;
        }
    }

    private void siftDown(final int start) {
        int i = start;
        while (true) {
            final int left = 2 * i + 1;
            if (left >= size) {
                return;
            }
            final int right = left + 1;
            final int child = right < size && less(right, left) ? right : left;
            if (!less(child, i)) {
                return;
            }
            swap(i, child);
            i = child;
        }
    }

    private boolean less(final int a, final int b) {
        return times[a] < times[b] || times[a] == times[b] && sequences[a] < sequences[b];
    }

    private void swap(final int a, final int b) {
        final long time = times[a];
        final long sequence = sequences[a];
        final KeyEntry<?> entry = entries[a];
        final int slot = slots[a];
        set(a, times[b], sequences[b], entries[b], slots[b]);
        set(b, time, sequence, entry, slot);
    }

    private void set(final int index, final long time, final long sequence, final KeyEntry<?> entry, final int slot) {
        times[index] = time;
        sequences[index] = sequence;
        entries[index] = entry;
        slots[index] = slot;
        timersOf(entry)[KeyEntry.WIDTH * slot + 2] = index;
    }
}
