package io.streamgrid.jobs.window.impl;

import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.window.WindowAggregation;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.jobs.window.WindowPolicy;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.Long2ObjectHashMap;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * Tumbling and sliding windows. Each key keeps one accumulator per slice of {@code slide} ms (for
 * tumbling windows a slice is the window). A slice is dropped once every window containing it is
 * past {@code end + allowed lateness}.
 *
 * <p>A key is registered in the timer wheel at one time only — its next window end, or when
 * nothing is left to emit, the time its state expires — and re-registers itself when visited, so
 * the wheel costs one registration per key and slide. A sliding window's value is its slices
 * combined when it is emitted; aggregations that {@linkplain WindowAggregation#deducts() deduct}
 * go to {@link IncrementalSlidingWindowEngine} instead, which keeps it current.
 */
public final class SlidingWindowEngine<A> extends AbstractWindowEngine<A> {
    private final long size;
    private final long slide;
    private final boolean tumbling;
    private final Long2ObjectHashMap<KeyState<A>> stateByKey = new Long2ObjectHashMap<>();
    /** Accumulators of dropped slices and of emitted sliding windows, for new ones. */
    private final SpareAccumulators<A> spareAccumulators;

    public SlidingWindowEngine(final WindowDefinition.Sliding window, final WindowPolicy policy,
                               final WindowAggregation<A> aggregation, final WindowListener<A> listener) {
        super(policy, aggregation, listener);
        this.size = window.size();
        this.slide = window.slide();
        this.tumbling = window.isTumbling();
        this.spareAccumulators = new SpareAccumulators<>(aggregation);
    }

    private static final class KeyState<A> {
        /*
         * Keyed by start / slide and end / slide, not by the times themselves: Agrona's maps hash a
         * long by multiplying it by 31, and times that are all multiples of the slide would crowd
         * into a fraction of the buckets (long probe chains); consecutive indexes spread evenly.
         */
        final Long2ObjectHashMap<A> sliceByIndex = new Long2ObjectHashMap<>();
        final Long2LongHashMap sequenceByEndIndex = new Long2LongHashMap(0);
        long lastFiredEnd = Long.MIN_VALUE;
        /** The one time this key is registered at in the wheel (older registrations are stale). */
        long nextDue = Long.MAX_VALUE;
        /** No slice starts below this; it rises as slices expire. */
        long sliceFloor = Long.MAX_VALUE;
        long newestSlice = Long.MIN_VALUE;
        /** The newest slice start before {@link #newestSlice}: with it, most windows are known to hold data without a lookup. */
        long previousSlice = Long.MIN_VALUE;
        /** No sequence entry ends below this. */
        long sequenceFloor = Long.MAX_VALUE;
    }

    @Override
    void process(final SchemaRecord event, final long key, final long timestamp) {
        final long sliceStart = Math.floorDiv(timestamp, slide) * slide;
        final long lastEnd = sliceStart + size;
        if (lateForEveryWindow(event, lastEnd)) {
            return;
        }
        KeyState<A> state = stateByKey.get(key);
        if (state == null) {
            state = new KeyState<>();
            stateByKey.put(key, state);
        }
        A slice = state.sliceByIndex.get(sliceStart / slide);
        if (slice == null) {
            slice = spareAccumulators.take();
            state.sliceByIndex.put(sliceStart / slide, slice);
            state.sliceFloor = Math.min(state.sliceFloor, sliceStart);
            noteSlice(state, sliceStart);
        }
        aggregation.accumulate(slice, event);

        final long firstEnd = sliceStart + slide;
        if (firstEnd > watermark) {
            // The common case: every window of this event is still open.
            ensureDue(key, state, firstEnd);
            return;
        }
        int missed = 0;
        long nextOpenEnd = Long.MAX_VALUE;
        for (long end = firstEnd; end <= lastEnd; end += slide) {
            if (end > watermark) {
                nextOpenEnd = Math.min(nextOpenEnd, end);
            } else if (end + lateness > watermark) {
                emit(key, state, end, true);
            } else {
                missed++;
            }
        }
        ensureDue(key, state, Math.min(nextOpenEnd, lastEnd + lateness));
        if (missed > 0) {
            lateForSomeWindows(event, missed, size / slide);
        }
    }

    /** Makes sure {@code key} is visited at {@code time} or earlier. */
    private void ensureDue(final long key, final KeyState<A> state, final long time) {
        if (time < state.nextDue) {
            state.nextDue = time;
            registerDue(time, key);
        }
    }

    @Override
    void onDue(final long key, final long time) {
        final KeyState<A> state = stateByKey.get(key);
        if (state == null || time != state.nextDue) {
            return; // a stale registration: the key was re-registered earlier and has moved on
        }
        state.nextDue = Long.MAX_VALUE;
        if (time > state.lastFiredEnd && Math.floorMod(time, slide) == 0 && hasSliceIn(state, time)) {
            emit(key, state, time, false);
        }
        dropExpired(state, time);
        if (state.sliceByIndex.isEmpty()) {
            stateByKey.remove(key);
            listener.onKeyDropped(key);
            return;
        }
        // Next: the following window end while the newest slice is still in a window, or expiry if sooner.
        final long nextEnd = time - Math.floorMod(time, slide) + slide;
        final long expiry = expiryAfter(state, time);
        final long next = state.newestSlice + size >= nextEnd ? Math.min(nextEnd, expiry) : expiry;
        if (next == Long.MAX_VALUE) {
            throw new IllegalStateException("bug: key " + key + " holds state but has nothing due after " + time);
        }
        state.nextDue = next;
        scheduleDue(next, key);
    }

    /** When the oldest slice or window-sequence entry of {@code state} expires (after {@code time}: those are dropped). */
    private long expiryAfter(final KeyState<A> state, final long time) {
        long expiry = Long.MAX_VALUE;
        if (state.sliceFloor != Long.MAX_VALUE) {
            expiry = state.sliceFloor + size + lateness;
        }
        if (state.sequenceFloor != Long.MAX_VALUE) {
            expiry = Math.min(expiry, state.sequenceFloor + lateness);
        }
        if (expiry <= time) {
            throw new IllegalStateException("bug: state expiring at " + expiry + " outlived its drop at " + time);
        }
        return expiry;
    }

    private static void noteSlice(final KeyState<?> state, final long start) {
        if (start > state.newestSlice) {
            state.previousSlice = state.newestSlice;
            state.newestSlice = start;
        } else if (start > state.previousSlice && start != state.newestSlice) {
            state.previousSlice = start;
        }
    }

    private boolean hasSliceIn(final KeyState<A> state, final long end) {
        // Slices never go while a window holding them can still be emitted, so these two need no lookup.
        if (state.newestSlice >= end - size && state.newestSlice < end
                || state.previousSlice >= end - size && state.previousSlice < end) {
            return true;
        }
        final long from = Math.max(end - size, state.sliceFloor);
        final long to = Math.min(end - slide, state.newestSlice);
        for (long start = from; start <= to; start += slide) {
            if (state.sliceByIndex.containsKey(start / slide)) {
                return true;
            }
        }
        return false;
    }

    private void emit(final long key, final KeyState<A> state, final long end, final boolean afterWatermark) {
        final A value;
        if (tumbling) {
            value = state.sliceByIndex.get((end - size) / slide);
        } else {
            value = combineSlices(state, end);
        }
        final int sequence;
        if (lateness > 0) {
            sequence = (int) state.sequenceByEndIndex.get(end / slide) + 1;
            state.sequenceByEndIndex.put(end / slide, sequence);
            state.sequenceFloor = Math.min(state.sequenceFloor, end);
        } else {
            sequence = 1; // without lateness a window is emitted once, on time: nothing to count
        }
        state.lastFiredEnd = Math.max(state.lastFiredEnd, end);
        listener.onWindow(key, end - size, end, value, sequence, afterWatermark);
        if (!tumbling) {
            spareAccumulators.give(value); // the slices combined: the listener holds it only during the call
        }
    }

    private A combineSlices(final KeyState<A> state, final long end) {
        final A value = spareAccumulators.take();
        final long from = Math.max(end - size, state.sliceFloor);
        final long to = Math.min(end - slide, state.newestSlice);
        for (long start = from; start <= to; start += slide) {
            final A slice = state.sliceByIndex.get(start / slide);
            if (slice != null) {
                aggregation.combine(value, slice);
            }
        }
        return value;
    }

    /**
     * Drops what expired by {@code time}, not by the watermark: after a jump of the watermark, windows
     * due between {@code time} and the watermark still need their slices.
     */
    private void dropExpired(final KeyState<A> state, final long time) {
        final long sliceCutoff = time - size - lateness; // slices starting at or before it are expired
        if (sliceCutoff - state.sliceFloor >= (long) state.sliceByIndex.size() * slide) {
            // Far behind (an idle key): visiting the slices is cheaper than stepping through the gap.
            final Long2ObjectHashMap<A>.EntryIterator slices = state.sliceByIndex.entrySet().iterator();
            long floor = Long.MAX_VALUE;
            while (slices.hasNext()) {
                slices.next();
                final long start = slices.getLongKey() * slide;
                if (start <= sliceCutoff) {
                    spareAccumulators.give(slices.getValue());
                    slices.remove();
                } else {
                    floor = Math.min(floor, start);
                }
            }
            state.sliceFloor = floor;
        } else {
            while (state.sliceFloor <= sliceCutoff) {
                final A dropped = state.sliceByIndex.remove(state.sliceFloor / slide);
                if (dropped != null) {
                    spareAccumulators.give(dropped);
                }
                state.sliceFloor += slide;
            }
        }
        final long sequenceCutoff = time - lateness; // windows ending at or before it take no more corrections
        if (sequenceCutoff - state.sequenceFloor >= (long) state.sequenceByEndIndex.size() * slide) {
            final Long2LongHashMap.EntryIterator sequences = state.sequenceByEndIndex.entrySet().iterator();
            long floor = Long.MAX_VALUE;
            while (sequences.hasNext()) {
                sequences.next();
                final long end = sequences.getLongKey() * slide;
                if (end <= sequenceCutoff) {
                    sequences.remove();
                } else {
                    floor = Math.min(floor, end);
                }
            }
            state.sequenceFloor = floor;
        } else {
            while (state.sequenceFloor <= sequenceCutoff) {
                state.sequenceByEndIndex.remove(state.sequenceFloor / slide);
                state.sequenceFloor += slide;
            }
        }
    }

    @Override
    public int keyCount() {
        return stateByKey.size();
    }

    @Override
    void writeKeys(final DataOutput out) throws IOException {
        out.writeInt(stateByKey.size());
        final Long2ObjectHashMap<KeyState<A>>.EntryIterator keys = stateByKey.entrySet().iterator();
        while (keys.hasNext()) {
            keys.next();
            final KeyState<A> state = keys.getValue();
            out.writeLong(keys.getLongKey());
            out.writeLong(state.lastFiredEnd);
            out.writeInt(state.sliceByIndex.size());
            final Long2ObjectHashMap<A>.EntryIterator slices = state.sliceByIndex.entrySet().iterator();
            while (slices.hasNext()) {
                slices.next();
                out.writeLong(slices.getLongKey() * slide); // the snapshot holds start times
                aggregation.write(slices.getValue(), out);
            }
            out.writeInt(state.sequenceByEndIndex.size());
            final Long2LongHashMap.EntryIterator sequences = state.sequenceByEndIndex.entrySet().iterator();
            while (sequences.hasNext()) {
                sequences.next();
                out.writeLong(sequences.getLongKey() * slide); // the snapshot holds end times
                out.writeInt((int) sequences.getLongValue());
            }
        }
    }

    @Override
    void restoreKeys(final DataInput in) throws IOException {
        stateByKey.clear();
        final int keys = in.readInt();
        for (int k = 0; k < keys; k++) {
            final long key = in.readLong();
            final KeyState<A> state = new KeyState<>();
            state.lastFiredEnd = in.readLong();
            final int slices = in.readInt();
            for (int s = 0; s < slices; s++) {
                final long start = in.readLong();
                state.sliceByIndex.put(start / slide, aggregation.read(in));
                state.sliceFloor = Math.min(state.sliceFloor, start);
                noteSlice(state, start);
            }
            final int sequences = in.readInt();
            for (int s = 0; s < sequences; s++) {
                final long end = in.readLong();
                state.sequenceByEndIndex.put(end / slide, in.readInt());
                state.sequenceFloor = Math.min(state.sequenceFloor, end);
            }
            stateByKey.put(key, state);
            // Due next: the first window end after the watermark (and after what fired), else expiry.
            final long afterWatermark = watermark == Long.MIN_VALUE ? Long.MIN_VALUE
                    : watermark - Math.floorMod(watermark, slide) + slide;
            final long firstUnfired = Math.max(afterWatermark, state.lastFiredEnd == Long.MIN_VALUE
                    ? state.sliceFloor + slide : state.lastFiredEnd + slide);
            final long expiry = expiryAfter(state, Long.MIN_VALUE);
            state.nextDue = state.newestSlice + size >= firstUnfired ? Math.min(firstUnfired, expiry) : expiry;
            scheduleDue(state.nextDue, key);
        }
    }
}
