package io.streamgrid.perf.bench;

import org.agrona.collections.Long2LongHashMap;

/**
 * The limit: a single-threaded sliding-window count with no framework, no source and no
 * guarantee — a primitive map of running totals per key plus a ring of one map per slide. When
 * event time crosses a slide boundary, the window that just closed is emitted (every key's running
 * total is added to {@link #tally()}), then the slice that leaves the next window is subtracted
 * and its ring slot reused. Events must come in timestamp order.
 */
final class HandWrittenSlidingCount {
    private final long slide;
    private final Long2LongHashMap totalByKey = new Long2LongHashMap(0);
    private final Long2LongHashMap[] ring;
    private long currentSlice = Long.MIN_VALUE;
    private long tally;
    private long results;

    HandWrittenSlidingCount(final long size, final long slide) {
        this.slide = slide;
        this.ring = new Long2LongHashMap[(int) (size / slide)];
        for (int i = 0; i < ring.length; i++) {
            ring[i] = new Long2LongHashMap(0);
        }
    }

    void onEvent(final long key, final long timestamp) {
        final long slice = timestamp - Math.floorMod(timestamp, slide);
        if (currentSlice == Long.MIN_VALUE) {
            currentSlice = slice;
        }
        while (currentSlice < slice) {
            closeSlice();
        }
        final Long2LongHashMap slot = ring[slot(currentSlice)];
        slot.put(key, slot.get(key) + 1);
        totalByKey.put(key, totalByKey.get(key) + 1);
    }

    /** Emits every window still holding events. */
    void flush() {
        while (!totalByKey.isEmpty()) {
            closeSlice();
        }
    }

    long tally() {
        return tally;
    }

    long results() {
        return results;
    }

    private void closeSlice() {
        final Long2LongHashMap.EntryIterator totals = totalByKey.entrySet().iterator();
        while (totals.hasNext()) {
            totals.next();
            tally += totals.getLongValue();
            results++;
        }
        // The oldest slice of the window just emitted leaves; its slot becomes the next slice's.
        final Long2LongHashMap leaving = ring[slot(currentSlice + slide)];
        final Long2LongHashMap.EntryIterator counts = leaving.entrySet().iterator();
        while (counts.hasNext()) {
            counts.next();
            final long key = counts.getLongKey();
            final long remaining = totalByKey.get(key) - counts.getLongValue();
            if (remaining == 0) {
                totalByKey.remove(key);
            } else {
                totalByKey.put(key, remaining);
            }
        }
        leaving.clear();
        currentSlice += slide;
    }

    private int slot(final long sliceStart) {
        return (int) Math.floorMod(sliceStart / slide, (long) ring.length);
    }
}
