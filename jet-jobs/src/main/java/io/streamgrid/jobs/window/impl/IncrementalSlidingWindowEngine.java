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
import java.io.UncheckedIOException;
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
    private final Long2ObjectHashMap<KeyState<A>> stateByKey = new Long2ObjectHashMap<>();
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
    /**
     * The snapshot encoding of each sealed slice (one the watermark has passed), kept from the
     * snapshot that first wrote it (to a {@link CopyableOutput}: the job's; any other output gets
     * every slice encoded afresh), or encoded when the window moved over it (see
     * {@link #encodeSealedAfter}). A sealed slice changes only through a late event, which drops its
     * bytes; so a snapshot encodes only the slices it finds unencoded and copies the rest — the job
     * pauses for every snapshot, and encoding every slice each time was that pause.
     */
    private final Long2ObjectHashMap<byte[]> sealedSliceBytes = new Long2ObjectHashMap<>();
    /** Slices starting below this may have bytes in {@link #sealedSliceBytes}; {@link #NONE}: none has. */
    private long sealedBelow = NONE;
    /**
     * The watermark at the previous snapshot — or, before the first, the first this engine had since
     * it was created or restored (a job's first snapshot comes one interval after its start): how
     * far event time moves between two snapshots.
     */
    private long previousSnapshotWatermark = NONE;
    /**
     * A slice starting after this is encoded as soon as the window moves over it (it is sealed then),
     * while its accumulators are still in cache from being combined: the slices expected to be alive
     * at the next snapshot, judged by how far event time moved between the last two. When a job
     * replays a backlog, event time outruns the window between two snapshots and every slice a
     * snapshot holds is new; encoding them there, one cache miss per accumulator, was most of the
     * snapshot's pause. {@code Long.MAX_VALUE} until the engine's first snapshot, and without snapshots.
     */
    private long encodeSealedAfter = Long.MAX_VALUE;
    private SnapshotOutput sealedEncoder;

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
    }

    private static final class KeyState<A> {
        /** From {@link #keyNumbers}, for as long as the key has state. */
        final int number;
        /** The running window's value, null when no slice of the key is in it. */
        A running;
        int slicesInWindow;
        /** Slices holding this key: the key's state goes when none is left (and no sequence). */
        int retainedSlices;
        /** Update sequence by window end / slide, for corrections; only with allowed lateness. */
        Long2LongHashMap sequenceByEndIndex;

        KeyState(final int number) {
            this.number = number;
        }
    }

    @Override
    void process(final SchemaRecord event, final long timestamp) {
        final long key = event.keyLong();
        final long sliceStart = Math.floorDiv(timestamp, slide) * slide;
        final long lastEnd = sliceStart + size;
        if (lateForEveryWindow(event, lastEnd)) {
            return;
        }
        final Long2ObjectHashMap<A> slice = slice(sliceStart);
        if (sliceStart < sealedBelow) {
            sealedSliceBytes.remove(sliceStart); // a late event changed a sealed slice: encode it again
        }
        A accumulator = slice.get(key);
        KeyState<A> state = null;
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

    private KeyState<A> keyState(final long key) {
        KeyState<A> state = stateByKey.get(key);
        if (state == null) {
            state = new KeyState<>(keyNumbers.take(key));
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

    private int nextSequence(final KeyState<A> state, final long end) {
        if (lateness == 0) {
            return 1; // without lateness a window is emitted once, on time: nothing to count
        }
        if (state.sequenceByEndIndex == null) {
            state.sequenceByEndIndex = new Long2LongHashMap(0);
        }
        final int sequence = (int) state.sequenceByEndIndex.get(end / slide) + 1;
        state.sequenceByEndIndex.put(end / slide, sequence);
        return sequence;
    }

    @Override
    void onDue(final long key, final long time) {
        throw new IllegalStateException("bug: the incremental sliding engine registers no due times, yet key " + key
                + " came due at " + time);
    }

    @Override
    void onWatermark() {
        if (previousSnapshotWatermark == NONE) {
            previousSnapshotWatermark = watermark;
        }
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
                final KeyState<A> state = stateByKey.get(entries.getLongKey());
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
            final boolean encode = emittedEnd > encodeSealedAfter;
            final Long2ObjectHashMap<A>.EntryIterator entries = entering.entrySet().iterator();
            while (entries.hasNext()) {
                entries.next();
                final KeyState<A> state = stateByKey.get(entries.getLongKey());
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
                encodeSealed(emittedEnd);
            }
        }
        emittedEnd += slide;
        if (keysInWindow == 0) {
            return;
        }
        final long end = emittedEnd;
        final Long2ObjectHashMap<KeyState<A>>.EntryIterator keys = stateByKey.entrySet().iterator();
        while (keys.hasNext()) {
            keys.next();
            final KeyState<A> state = keys.getValue();
            if (state.slicesInWindow > 0) {
                listener.onWindow(keys.getLongKey(), end - size, end, state.running, nextSequence(state, end), false);
            }
        }
    }

    /**
     * Keeps the snapshot encoding of the sealed slice starting at {@code start}, whose entries are
     * gathered in {@link #sliceCodec}, for the next snapshot to copy.
     */
    private void encodeSealed(final long start) {
        if (sealedEncoder == null) {
            sealedEncoder = new SnapshotOutput();
        }
        sealedEncoder.reset();
        try {
            sliceCodec.writeTo(sealedEncoder);
        } catch (final IOException e) {
            throw new UncheckedIOException("bug: encoding into memory failed", e);
        }
        keepSealed(start, sealedEncoder.copy(0, sealedEncoder.length()));
    }

    private void keepSealed(final long start, final byte[] encoding) {
        sealedSliceBytes.put(start, encoding);
        sealedBelow = Math.max(sealedBelow, start + 1);
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
            sealedSliceBytes.remove(oldest.getKey());
            if (oldest.getKey() == cachedSliceStart) {
                cachedSliceStart = NONE;
                cachedSlice = null;
            }
            final Long2ObjectHashMap<A>.KeyIterator keys = oldest.getValue().keySet().iterator();
            while (keys.hasNext()) {
                final long key = keys.nextLong();
                final KeyState<A> state = stateByKey.get(key);
                if (--state.retainedSlices == 0 && isEmpty(state.sequenceByEndIndex)) {
                    stateByKey.remove(key);
                    keyNumbers.free(state.number);
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
        final Long2ObjectHashMap<KeyState<A>>.EntryIterator keys = stateByKey.entrySet().iterator();
        while (keys.hasNext()) {
            keys.next();
            final KeyState<A> state = keys.getValue();
            if (state.sequenceByEndIndex == null) {
                continue;
            }
            final Long2LongHashMap.KeyIterator ends = state.sequenceByEndIndex.keySet().iterator();
            while (ends.hasNext()) {
                if (ends.nextValue() <= cutoffIndex) {
                    ends.remove();
                }
            }
            if (state.retainedSlices == 0 && state.sequenceByEndIndex.isEmpty()) {
                keys.remove();
                keyNumbers.free(state.number);
            }
        }
    }

    private static boolean isEmpty(final Long2LongHashMap map) {
        return map == null || map.isEmpty();
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
        // Keep only what the next snapshot will still hold: when event time moves faster than the
        // window between two snapshots (a job catching up on a backlog), every slice is gone by then
        // and keeping them would be a copy of the whole state per snapshot for nothing.
        final long keptFrom = previousSnapshotWatermark == NONE || watermark() == NONE ? Long.MAX_VALUE
                : watermark() + Math.max(0, watermark() - previousSnapshotWatermark) - size - lateness;
        if (copyable != null) {
            previousSnapshotWatermark = watermark();
            encodeSealedAfter = keptFrom;
        }
        for (final Map.Entry<Long, Long2ObjectHashMap<A>> slice : slices.entrySet()) {
            final long start = slice.getKey();
            out.writeLong(start);
            final byte[] sealed = copyable == null ? null : sealedSliceBytes.get(start);
            if (sealed != null) {
                out.write(sealed);
                continue;
            }
            final int from = copyable == null ? 0 : copyable.length();
            writeSlice(out, slice.getValue());
            if (copyable != null && start + slide <= watermark() && start > keptFrom) {
                keepSealed(start, copyable.copy(from, copyable.length()));
            }
        }
        int withSequences = 0;
        for (final KeyState<A> state : stateByKey.values()) {
            if (!isEmpty(state.sequenceByEndIndex)) {
                withSequences++;
            }
        }
        out.writeInt(withSequences);
        final Long2ObjectHashMap<KeyState<A>>.EntryIterator keys = stateByKey.entrySet().iterator();
        while (keys.hasNext()) {
            keys.next();
            final Long2LongHashMap sequences = keys.getValue().sequenceByEndIndex;
            if (isEmpty(sequences)) {
                continue;
            }
            out.writeLong(keys.getLongKey());
            out.writeInt(sequences.size());
            final Long2LongHashMap.EntryIterator entries = sequences.entrySet().iterator();
            while (entries.hasNext()) {
                entries.next();
                out.writeLong(entries.getLongKey());
                out.writeInt((int) entries.getLongValue());
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
        sealedSliceBytes.clear();
        sealedBelow = NONE;
        previousSnapshotWatermark = watermark(); // NONE when the snapshot had none: then the first one read
        encodeSealedAfter = Long.MAX_VALUE;
        keysInWindow = 0;
        cachedSliceStart = NONE;
        cachedSlice = null;
        final int format = in.readUnsignedByte();
        if (format != STATE_FORMAT) {
            throw new IOException("window state of format " + format + ", this version reads format " + STATE_FORMAT
                    + ": a snapshot written by another StreamGrid version (start the job over: job submit --from-checkpoint none)");
        }
        emittedEnd = in.readLong();
        keyNumbers.readFrom(in, (number, key) -> stateByKey.put(key, new KeyState<>(number)));
        final int sliceCount = in.readInt();
        for (int s = 0; s < sliceCount; s++) {
            final long start = in.readLong();
            final boolean inRunningWindow = emittedEnd != NONE && start < emittedEnd && start >= emittedEnd - size;
            final Long2ObjectHashMap<A> slice = new Long2ObjectHashMap<>();
            SliceCodec.read(in, aggregation, (number, accumulator) -> {
                final long key = keyNumbers.key(number); // fails on a number no key holds: a damaged snapshot
                final KeyState<A> state = stateByKey.get(key);
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
            final KeyState<A> state = keyState(in.readLong());
            state.sequenceByEndIndex = new Long2LongHashMap(0);
            final int sequences = in.readInt();
            for (int s = 0; s < sequences; s++) {
                state.sequenceByEndIndex.put(in.readLong(), in.readInt());
            }
        }
    }
}
