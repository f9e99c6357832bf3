package io.streamgrid.jobs.window.impl;

import java.util.Arrays;

/**
 * A binary min-heap of longs in a growing array, without boxing: the distinct due times of the
 * window engines' timer wheel and of the keyed functions' timer queue.
 */
public final class TimeHeap {
    private long[] times = new long[64];
    private int size;

    public int size() {
        return size;
    }

    /** The smallest time; only when {@link #size()} is positive. */
    public long peek() {
        return times[0];
    }

    public void clear() {
        size = 0;
    }

    /** The times held, in heap order (not sorted). */
    public long[] toArray() {
        return Arrays.copyOf(times, size);
    }

    public void push(final long time) {
        if (size == times.length) {
            times = Arrays.copyOf(times, size * 2);
        }
        int i = size++;
        while (i > 0) {
            final int parent = (i - 1) >>> 1;
            if (times[parent] <= time) {
                break;
            }
            times[i] = times[parent];
            i = parent;
        }
        times[i] = time;
    }

    /** Removes the smallest time; only when {@link #size()} is positive. */
    public void pop() {
        final long last = times[--size];
        int i = 0;
        while (true) {
            final int left = 2 * i + 1;
            if (left >= size) {
                break;
            }
            final int child = left + 1 < size && times[left + 1] < times[left] ? left + 1 : left;
            if (times[child] >= last) {
                break;
            }
            times[i] = times[child];
            i = child;
        }
        times[i] = last;
    }
}
