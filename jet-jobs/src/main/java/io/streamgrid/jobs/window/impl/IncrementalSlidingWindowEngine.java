package io.streamgrid.jobs.window.impl;

import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.window.WindowAggregation;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.jobs.window.WindowPolicy;
import org.agrona.collections.Long2ObjectHashMap;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Map;
import java.util.TreeMap;

/**
 * Sliding windows for aggregations that {@linkplain WindowAggregation#deducts() deduct}, laid out by
 * slice rather than by key: one map of key → accumulator per slice of {@code slide} ms, and per key a
 * running accumulator holding the window that ends at {@link #emittedEnd}. When the watermark passes
 * the next window end, the window moves by one slide for every key at once — the slice leaving it
 * is deducted and the slice entering it combined, each by one pass over that slice's map — and every
 * key with data in the window is emitted. The maps touched per event and per slide are small and
 * visited in order, which keeps the working set in cache; the per-key layout of
 * {@link SlidingWindowEngine} visits a key's own slice map at every slide instead.
 *
 * <p>Same contract as {@link SlidingWindowEngine}: a key's window is emitted on time when the
 * watermark reaches its end and it holds data; late events within the allowed lateness emit
 * corrected windows at once (rebuilt from the slices), later ones go to the late output. Results of
 * one key come in window order; the order across keys within one window end may differ from the
 * per-key engine's (and between a restored and an uninterrupted run), which no sink depends on.
 */
public final class IncrementalSlidingWindowEngine<A> extends AbstractWindowEngine<A> {
    private static final long NONE = Long.MIN_VALUE;
    private static final int MAX_SPARE_SLICES = 4;
    /** The layout of {@link #writeKeys}: 3 since slices are written over key numbers ({@link SliceCodec}). */
    private static final int STATE_FORMAT = 3;

    private final long size;
    private final long slide;
    /** Slice start → (key → accumulator); only slices some window may still need. */
    private final TreeMap<Long, Long2ObjectHashMap<A>> slices = new TreeMap<>();
    private final Long2ObjectHashMap<SliceKeyState<A>> stateByKey = new Long2ObjectHashMap<>();
    /** A number for every key in {@link #stateByKey}, by which snapshots write a slice's keys. */
    private final KeyNumbers keyNumbers = new KeyNumbers();
    private final SliceCodec<A> sliceCodec;
    /** Maps of dropped slices, emptied for reuse: a new slice's map starts at the size keys need. */
    private final ArrayDeque<Long2ObjectHashMap<A>> spareSlices = new ArrayDeque<>();
    /** Accumulators of dropped slices and emptied running windows, for new ones. */
    private final SpareAccumulators<A> spareAccumulators;
    /** Every window ending at or before this has been emitted on time; {@link #NONE} before the first. */
    private long emittedEnd = NONE;
    /** Keys with at least one slice in the running window (the one ending at {@link #emittedEnd}). */
    private int keysInWindow;
    private long cachedSliceStart = NONE;
    private Long2ObjectHashMap<A> cachedSlice;
    private final SealedSlices sealed;

    public IncrementalSlidingWindowEngine(final WindowDefinition.Sliding window, final WindowPolicy policy,
                                          final WindowAggregation<A> aggregation, final WindowListener<A> listener) {
        super(policy, aggregation, listener);
        if (window.isTumbling() || !aggregation.deducts()) {
            throw new IllegalArgumentException("bug: the incremental engine needs sliding windows and a deducting "
                    + "aggregation, got " + window + " and deducts=" + aggregation.deducts());
        }
        this.size = window.size();
        this.slide = window.slide();
        this.spareAccumulators = new SpareAccumulators<>(aggregation);
        this.sliceCodec = new SliceCodec<>(aggregation);
        this.sealed = new SealedSlices(size, lateness);
    }

    @Override
    void process(final SchemaRecord event, final long key, final long timestamp) {
        final long sliceStart = Math.floorDiv(timestamp, slide) * slide;
        final long lastEnd = sliceStart + size;
        if (lateForEveryWindow(event, lastEnd)) {
            return;
        }
        final Long2ObjectHashMap<A> slice = slice(sliceStart);
        sealed.changed(sliceStart);
        A accumulator = slice.get(key);
        SliceKeyState<A> state = null;
        final boolean inRunningWindow = emittedEnd != NONE && sliceStart < emittedEnd && sliceStart >= emittedEnd - size;
        if (accumulator == null) {
            accumulator = spareAccumulators.take();
            slice.put(key, accumulator);
            state = keyState(key);
            state.retainedSlices++;
            if (inRunningWindow && state.slicesInWindow++ == 0) {
                keysInWindow++;
            }
        }
        aggregation.accumulate(accumulator, event);
        if (inRunningWindow) {
            if (state == null) {
                state = stateByKey.get(key);
            }
            if (state.running == null) {
                state.running = spareAccumulators.take();
            }
            aggregation.accumulate(state.running, event);
        }

        final long firstEnd = sliceStart + slide;
        if (firstEnd > watermark) {
            return; // the common case: every window of this event is still open
        }
        int missed = 0;
        for (long end = firstEnd; end <= lastEnd; end += slide) {
            if (end <= watermark) {
                if (end + lateness > watermark) {
                    emitCorrection(key, end);
                } else {
                    missed++;
                }
            }
        }
        if (missed > 0) {
            lateForSomeWindows(event, missed, size / slide);
        }
    }

    private Long2ObjectHashMap<A> slice(final long start) {
        if (start == cachedSliceStart) {
            return cachedSlice;
        }
        Long2ObjectHashMap<A> slice = slices.get(start);
        if (slice == null) {
            slice = spareSlices.isEmpty() ? new Long2ObjectHashMap<>() : spareSlices.poll();
            slices.put(start, slice);
        }
        cachedSliceStart = start;
        cachedSlice = slice;
        return slice;
    }

    private SliceKeyState<A> keyState(final long key) {
        SliceKeyState<A> state = stateByKey.get(key);
        if (state == null) {
            state = new SliceKeyState<>(keyNumbers.take(key));
            stateByKey.put(key, state);
        }
        return state;
    }

    /** A window the watermark has passed, updated by a late event: rebuilt from its slices. */
    private void emitCorrection(final long key, final long end) {
        final A value = spareAccumulators.take();
        for (final Long2ObjectHashMap<A> slice : slices.subMap(end - size, end).values()) {
            final A accumulator = slice.get(key);
            if (accumulator != null) {
                aggregation.combine(value, accumulator);
            }
        }
        listener.onWindow(key, end - size, end, value, nextSequence(stateByKey.get(key), end), true);
        spareAccumulators.give(value); // the listener holds it only during the call
    }

    private int nextSequence(final SliceKeyState<A> state, final long end) {
        // Without lateness a window is emitted once, on time: nothing to count.
        return lateness == 0 ? 1 : state.nextSequence(end / slide);
    }

    @Override
    void onDue(final long key, final long time) {
        throw new IllegalStateException("bug: the incremental sliding engine registers no due times, yet key " + key
                + " came due at " + time);
    }

    @Override
    void onWatermark() {
        sealed.onWatermark(watermark);
        if (slices.isEmpty() && emittedEnd == NONE) {
            return;
        }
        final long target = Math.floorDiv(watermark, slide) * slide;
        if (emittedEnd == NONE) {
            // The window ending at the oldest slice holds nothing: start there, empty.
            emittedEnd = Math.min(slices.firstKey(), target);
        }
        boolean moved = false;
        while (emittedEnd < target) {
            moved = true;
            if (keysInWindow == 0) {
                // Nothing in the running window: skip the empty windows up to the next slice.
                final Long next = slices.ceilingKey(emittedEnd);
                final long jumpTo = next == null ? target : Math.min(next, target);
                if (jumpTo > emittedEnd) {
                    emittedEnd = jumpTo;
                    dropExpired();
                    continue;
                }
            }
            step();
            dropExpired();
        }
        if (moved && lateness > 0) {
            dropExpiredSequences();
        }
    }

    /** Moves the running window by one slide for every key and emits every key with data in it. */
    private void step() {
        final Long2ObjectHashMap<A> leaving = slices.get(emittedEnd - size);
        if (leaving != null) {
            final Long2ObjectHashMap<A>.EntryIterator entries = leaving.entrySet().iterator();
            while (entries.hasNext()) {
                entries.next();
                final SliceKeyState<A> state = stateByKey.get(entries.getLongKey());
                aggregation.deduct(state.running, entries.getValue());
                if (--state.slicesInWindow == 0) {
                    spareAccumulators.give(state.running);
                    state.running = null; // nothing left in it: start afresh rather than from a deducted zero
                    keysInWindow--;
                }
            }
        }
        final Long2ObjectHashMap<A> entering = slices.get(emittedEnd);
        if (entering != null) {
            final boolean encode = sealed.encodesWhenSealed(emittedEnd);
            final Long2ObjectHashMap<A>.EntryIterator entries = entering.entrySet().iterator();
            while (entries.hasNext()) {
                entries.next();
                final SliceKeyState<A> state = stateByKey.get(entries.getLongKey());
                if (state.running == null) {
                    state.running = spareAccumulators.take();
                }
                aggregation.combine(state.running, entries.getValue());
                if (state.slicesInWindow++ == 0) {
                    keysInWindow++;
                }
                if (encode) {
                    sliceCodec.add(state.number, entries.getValue());
                }
            }
            if (encode) {
                sealed.encode(emittedEnd, sliceCodec);
            }
        }
        emittedEnd += slide;
        if (keysInWindow == 0) {
            return;
        }
        final long end = emittedEnd;
        final Long2ObjectHashMap<SliceKeyState<A>>.EntryIterator keys = stateByKey.entrySet().iterator();
        while (keys.hasNext()) {
            keys.next();
            final SliceKeyState<A> state = keys.getValue();
            if (state.slicesInWindow > 0) {
                listener.onWindow(keys.getLongKey(), end - size, end, state.running, nextSequence(state, end), false);
            }
        }
    }

    /**
     * Drops the slices no window can still use: those past {@code end + allowed lateness} for every
     * window containing them, except the one the running window deducts when it next moves.
     */
    private void dropExpired() {
        final long cutoff = Math.min(watermark - size - lateness, emittedEnd - size - slide);
        Map.Entry<Long, Long2ObjectHashMap<A>> oldest;
        while ((oldest = slices.firstEntry()) != null && oldest.getKey() <= cutoff) {
            slices.pollFirstEntry();
            sealed.dropped(oldest.getKey());
            if (oldest.getKey() == cachedSliceStart) {
                cachedSliceStart = NONE;
                cachedSlice = null;
            }
            final Long2ObjectHashMap<A>.KeyIterator keys = oldest.getValue().keySet().iterator();
            while (keys.hasNext()) {
                final long key = keys.nextLong();
                final SliceKeyState<A> state = stateByKey.get(key);
                if (--state.retainedSlices == 0 && state.isEmpty()) {
                    stateByKey.remove(key);
                    keyNumbers.free(state.number);
                    listener.onKeyDropped(key);
                }
            }
            if (spareAccumulators.reuses()) {
                for (final A accumulator : oldest.getValue().values()) {
                    spareAccumulators.give(accumulator);
                }
            }
            if (spareSlices.size() < MAX_SPARE_SLICES) {
                oldest.getValue().clear();
                spareSlices.push(oldest.getValue());
            }
        }
    }

    /** Forgets the update sequences of windows that can take no more corrections. */
    private void dropExpiredSequences() {
        final long cutoffIndex = Math.floorDiv(watermark - lateness, slide); // ends at or before it are closed
        final Long2ObjectHashMap<SliceKeyState<A>>.EntryIterator keys = stateByKey.entrySet().iterator();
        while (keys.hasNext()) {
            keys.next();
            final SliceKeyState<A> state = keys.getValue();
            state.dropSequencesTo(cutoffIndex);
            if (state.isEmpty()) {
                final long key = keys.getLongKey();
                keys.remove();
                keyNumbers.free(state.number);
                listener.onKeyDropped(key);
            }
        }
    }

    @Override
    public int keyCount() {
        return stateByKey.size();
    }

    @Override
    void writeKeys(final DataOutput out) throws IOException {
        out.writeByte(STATE_FORMAT);
        out.writeLong(emittedEnd);
        keyNumbers.writeTo(out);
        out.writeInt(slices.size());
        final CopyableOutput copyable = out instanceof CopyableOutput c ? c : null;
        final long keptFrom = sealed.beginSnapshot(watermark(), copyable != null);
        for (final Map.Entry<Long, Long2ObjectHashMap<A>> slice : slices.entrySet()) {
            final long start = slice.getKey();
            out.writeLong(start);
            final byte[] bytes = copyable == null ? null : sealed.bytesOf(start);
            if (bytes != null) {
                out.write(bytes);
                continue;
            }
            final int from = copyable == null ? 0 : copyable.length();
            writeSlice(out, slice.getValue());
            if (copyable != null && start + slide <= watermark() && start > keptFrom) {
                sealed.keep(start, copyable.copy(from, copyable.length()));
            }
        }
        int withSequences = 0;
        for (final SliceKeyState<A> state : stateByKey.values()) {
            if (state.hasSequences()) {
                withSequences++;
            }
        }
        out.writeInt(withSequences);
        final Long2ObjectHashMap<SliceKeyState<A>>.EntryIterator keys = stateByKey.entrySet().iterator();
        while (keys.hasNext()) {
            keys.next();
            if (keys.getValue().hasSequences()) {
                out.writeLong(keys.getLongKey());
                keys.getValue().writeSequences(out);
            }
        }
    }

    private void writeSlice(final DataOutput out, final Long2ObjectHashMap<A> slice) throws IOException {
        final Long2ObjectHashMap<A>.EntryIterator entries = slice.entrySet().iterator();
        while (entries.hasNext()) {
            entries.next();
            sliceCodec.add(stateByKey.get(entries.getLongKey()).number, entries.getValue());
        }
        sliceCodec.writeTo(out);
    }

    @Override
    void restoreKeys(final DataInput in) throws IOException {
        slices.clear();
        stateByKey.clear();
        sealed.reset(watermark()); // NONE when the snapshot had none: then the first one read
        keysInWindow = 0;
        cachedSliceStart = NONE;
        cachedSlice = null;
        final int format = in.readUnsignedByte();
        if (format != STATE_FORMAT) {
            throw new IOException("window state of format " + format + ", this version reads format " + STATE_FORMAT
                    + ": a snapshot written by another StreamGrid version (start the job over: job submit --from-checkpoint none)");
        }
        emittedEnd = in.readLong();
        keyNumbers.readFrom(in, (number, key) -> stateByKey.put(key, new SliceKeyState<>(number)));
        final int sliceCount = in.readInt();
        for (int s = 0; s < sliceCount; s++) {
            final long start = in.readLong();
            final boolean inRunningWindow = emittedEnd != NONE && start < emittedEnd && start >= emittedEnd - size;
            final Long2ObjectHashMap<A> slice = new Long2ObjectHashMap<>();
            SliceCodec.read(in, aggregation, (number, accumulator) -> {
                final long key = keyNumbers.key(number); // fails on a number no key holds: a damaged snapshot
                final SliceKeyState<A> state = stateByKey.get(key);
                slice.put(key, accumulator);
                state.retainedSlices++;
                if (inRunningWindow) {
                    if (state.running == null) {
                        state.running = aggregation.create();
                    }
                    aggregation.combine(state.running, accumulator);
                    if (state.slicesInWindow++ == 0) {
                        keysInWindow++;
                    }
                }
            });
            slices.put(start, slice);
        }
        final int withSequences = in.readInt();
        for (int k = 0; k < withSequences; k++) {
            keyState(in.readLong()).readSequences(in);
        }
    }
}
