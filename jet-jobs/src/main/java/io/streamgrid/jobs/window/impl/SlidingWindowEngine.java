package io.streamgrid.jobs.window.impl;

import io.streamgrid.jobs.event.EventRecord;
import io.streamgrid.jobs.window.WindowAggregation;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.jobs.window.WindowListener;
import io.streamgrid.jobs.window.WindowPolicy;
import org.agrona.collections.Long2LongHashMap;
import org.agrona.collections.Long2ObjectHashMap;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * Tumbling and sliding windows. Each key keeps one accumulator per slice of {@code slide} ms
 * (for tumbling windows a slice is the window); a window's value is the combination of its
 * {@code size / slide} slices, built when it is emitted. A slice is dropped once every window
 * containing it is past {@code end + allowed lateness}.
 */
public final class SlidingWindowEngine<A> extends AbstractWindowEngine<A> {
    private final long size;
    private final long slide;
    private final boolean tumbling;
    private final Long2ObjectHashMap<KeyState<A>> stateByKey = new Long2ObjectHashMap<>();

    public SlidingWindowEngine(final WindowDefinition.Sliding window, final WindowPolicy policy,
                               final WindowAggregation<A> aggregation, final WindowListener<A> listener) {
        super(policy, aggregation, listener);
        this.size = window.size();
        this.slide = window.slide();
        this.tumbling = window.isTumbling();
    }

    private static final class KeyState<A> {
        final Long2ObjectHashMap<A> sliceByStart = new Long2ObjectHashMap<>();
        final Long2LongHashMap sequenceByWindowEnd = new Long2LongHashMap(0);
        long lastFiredEnd = Long.MIN_VALUE;
    }

    @Override
    void process(final EventRecord event, final long timestamp) {
        final long key = event.key();
        final long sliceStart = Math.floorDiv(timestamp, slide) * slide;
        final long lastEnd = sliceStart + size;
        if (lastEnd + lateness <= watermark) {
            lateEvents++;
            listener.onLate(event, watermark, "every window containing it ended by " + lastEnd
                    + " and closed at watermark " + watermark + " (allowed lateness " + lateness + " ms)");
            return;
        }
        KeyState<A> state = stateByKey.get(key);
        if (state == null) {
            state = new KeyState<>();
            stateByKey.put(key, state);
        }
        A slice = state.sliceByStart.get(sliceStart);
        final boolean created = slice == null;
        if (created) {
            slice = aggregation.create();
            state.sliceByStart.put(sliceStart, slice);
        }
        aggregation.accumulate(slice, event);

        final long firstEnd = sliceStart + slide;
        if (firstEnd > watermark) {
            // The common case: every window of this event is still open.
            if (created) {
                registerSlice(key, sliceStart);
            }
            return;
        }
        int missed = 0;
        for (long end = firstEnd; end <= lastEnd; end += slide) {
            if (end > watermark) {
                registerDue(end, key);
            } else if (end + lateness > watermark) {
                emit(key, state, end, true);
            } else {
                missed++;
            }
        }
        registerDue(lastEnd + lateness, key);
        if (missed > 0) {
            lateEvents++;
            listener.onLate(event, watermark, "missed " + missed + " of its " + (size / slide)
                    + " windows, closed beyond allowed lateness " + lateness + " ms at watermark " + watermark
                    + "; counted in the others");
        }
    }

    private void registerSlice(final long key, final long sliceStart) {
        for (long end = sliceStart + slide; end <= sliceStart + size; end += slide) {
            registerDue(end, key);
        }
        registerDue(sliceStart + size + lateness, key);
    }

    @Override
    void onDue(final long key, final long time) {
        final KeyState<A> state = stateByKey.get(key);
        if (state == null) {
            return;
        }
        if (time > state.lastFiredEnd && Math.floorMod(time, slide) == 0 && hasData(state, time)) {
            emit(key, state, time, false);
        }
        dropExpired(key, state, time);
    }

    private boolean hasData(final KeyState<A> state, final long end) {
        for (long start = end - size; start < end; start += slide) {
            if (state.sliceByStart.containsKey(start)) {
                return true;
            }
        }
        return false;
    }

    private void emit(final long key, final KeyState<A> state, final long end, final boolean afterWatermark) {
        final A value;
        if (tumbling) {
            value = state.sliceByStart.get(end - size);
        } else {
            value = aggregation.create();
            for (long start = end - size; start < end; start += slide) {
                final A slice = state.sliceByStart.get(start);
                if (slice != null) {
                    aggregation.combine(value, slice);
                }
            }
        }
        final int sequence = (int) state.sequenceByWindowEnd.get(end) + 1;
        state.sequenceByWindowEnd.put(end, sequence);
        state.lastFiredEnd = Math.max(state.lastFiredEnd, end);
        listener.onWindow(key, end - size, end, value, sequence, afterWatermark);
    }

    /**
     * Drops what expired by {@code time}, not by the watermark: after a jump of the watermark, windows
     * due between {@code time} and the watermark still need their slices; each slice has its own
     * registration at its expiry time, visited in time order after those windows.
     */
    private void dropExpired(final long key, final KeyState<A> state, final long time) {
        final Long2ObjectHashMap<A>.EntryIterator slices = state.sliceByStart.entrySet().iterator();
        while (slices.hasNext()) {
            slices.next();
            if (slices.getLongKey() + size + lateness <= time) {
                slices.remove();
            }
        }
        final Long2LongHashMap.EntryIterator sequences = state.sequenceByWindowEnd.entrySet().iterator();
        while (sequences.hasNext()) {
            sequences.next();
            if (sequences.getLongKey() + lateness <= time) {
                sequences.remove();
            }
        }
        if (state.sliceByStart.isEmpty()) {
            stateByKey.remove(key);
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
            out.writeInt(state.sliceByStart.size());
            final Long2ObjectHashMap<A>.EntryIterator slices = state.sliceByStart.entrySet().iterator();
            while (slices.hasNext()) {
                slices.next();
                out.writeLong(slices.getLongKey());
                aggregation.write(slices.getValue(), out);
            }
            out.writeInt(state.sequenceByWindowEnd.size());
            final Long2LongHashMap.EntryIterator sequences = state.sequenceByWindowEnd.entrySet().iterator();
            while (sequences.hasNext()) {
                sequences.next();
                out.writeLong(sequences.getLongKey());
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
                state.sliceByStart.put(start, aggregation.read(in));
                for (long end = start + slide; end <= start + size; end += slide) {
                    if (end > state.lastFiredEnd) {
                        registerDue(end, key);
                    }
                }
                registerDue(start + size + lateness, key);
            }
            final int sequences = in.readInt();
            for (int s = 0; s < sequences; s++) {
                state.sequenceByWindowEnd.put(in.readLong(), in.readInt());
            }
            stateByKey.put(key, state);
        }
    }
}
