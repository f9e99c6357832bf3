package io.streamgrid.jobs.window.impl;

import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.window.WindowAggregation;
import io.streamgrid.jobs.window.WindowPolicy;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.collections.LongHashSet;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayDeque;

/**
 * The watermark and the timer wheel shared by both engines: keys are registered at the event times
 * when something is due for them (a window to emit, state to drop); advancing the watermark visits
 * exactly the keys with something due, in time order.
 *
 * <p>The wheel is a primitive map from each due time to its keys and a heap of those times: a new
 * session registers at its own millisecond, so looking a time up must not box it or walk a tree
 * (a {@code TreeMap<Long, …>} here was 16 % of NEXMark Q11's samples; perf/NOTES.md).
 */
abstract class AbstractWindowEngine<A> implements WindowEngine<A> {
    protected final WindowAggregation<A> aggregation;
    protected final WindowListener<A> listener;
    protected final long disorder;
    protected final long lateness;
    private final Long2ObjectHashMap<LongHashSet> dueKeysByTime = new Long2ObjectHashMap<>();
    /** The times {@link #dueKeysByTime} holds, exactly those. */
    private final TimeHeap dueTimes = new TimeHeap();
    /**
     * Emptied key sets kept for reuse: a set grows to the number of keys once, not at every due time.
     * At most {@value #MAX_SPARE_KEY_SETS}: after a burst of distinct due times the rest go to the GC.
     */
    private final ArrayDeque<LongHashSet> spareKeySets = new ArrayDeque<>();
    static final int MAX_SPARE_KEY_SETS = 64;
    protected long watermark = Long.MIN_VALUE;
    protected long lateEvents;

    AbstractWindowEngine(final WindowPolicy policy, final WindowAggregation<A> aggregation, final WindowListener<A> listener) {
        this.aggregation = aggregation;
        this.listener = listener;
        this.disorder = policy.allowedDisorderMs();
        this.lateness = policy.allowedLatenessMs();
    }

    @Override
    public final void onEvent(final SchemaRecord event, final long key) {
        final long timestamp = event.eventTime();
        process(event, key, timestamp);
        advanceWatermark(timestamp - disorder);
    }

    @Override
    public final void onEventAtClock(final SchemaRecord event, final long key) {
        process(event, key, event.eventTime());
    }

    @Override
    public final void advanceTo(final long candidate) {
        advanceWatermark(candidate);
    }

    @Override
    public final void onHeartbeat(final long eventTime) {
        advanceWatermark(eventTime - disorder);
    }

    @Override
    public final void onEndOfStream() {
        advanceWatermark(Long.MAX_VALUE);
    }

    /**
     * For slice-based windows: reports {@code event} late and returns true when every window holding
     * it ({@code lastEnd} is the end of the last one) is past its allowed lateness.
     */
    final boolean lateForEveryWindow(final SchemaRecord event, final long lastEnd) {
        if (lastEnd + lateness > watermark) {
            return false;
        }
        lateEvents++;
        listener.onLate(event, watermark, "every window containing it ended by " + lastEnd
                + " and closed at watermark " + watermark + " (allowed lateness " + lateness + " ms)");
        return true;
    }

    /** For slice-based windows: reports {@code event} late for {@code missed} of its windows. */
    final void lateForSomeWindows(final SchemaRecord event, final int missed, final long windowsPerEvent) {
        lateEvents++;
        listener.onLate(event, watermark, "missed " + missed + " of its " + windowsPerEvent
                + " windows, closed beyond allowed lateness " + lateness + " ms at watermark " + watermark
                + "; counted in the others");
    }

    /** Handles one event against the current watermark (which it does not change). */
    abstract void process(SchemaRecord event, long key, long timestamp);

    /** Emits what is due for {@code key} at {@code time} (at most the watermark) and drops what has expired. */
    abstract void onDue(long key, long time);

    /** Writes the per-key state; the timer registrations are rebuilt by {@link #restoreKeys}. */
    abstract void writeKeys(DataOutput out) throws IOException;

    /** Reads the per-key state and re-registers every key's due times. */
    abstract void restoreKeys(DataInput in) throws IOException;

    final void registerDue(final long time, final long key) {
        if (time <= watermark) {
            return; // already due: the caller handles it now
        }
        scheduleDue(time, key);
    }

    /**
     * Registers {@code key} at {@code time} even when {@code time} is not after the watermark: for
     * a key re-registering itself while the watermark advances ({@link #onDue} at an earlier time),
     * visited later in the same advance. {@code time} must be after the time being visited.
     */
    final void scheduleDue(final long time, final long key) {
        LongHashSet keys = dueKeysByTime.get(time);
        if (keys == null) {
            keys = spareKeySets.isEmpty() ? new LongHashSet() : spareKeySets.poll();
            dueKeysByTime.put(time, keys);
            dueTimes.push(time);
        }
        keys.add(key);
    }

    private void advanceWatermark(final long candidate) {
        if (candidate <= watermark) {
            return;
        }
        watermark = candidate;
        while (dueTimes.size() > 0 && dueTimes.peek() <= watermark) {
            final long time = dueTimes.peek();
            dueTimes.pop();
            final LongHashSet due = dueKeysByTime.remove(time);
            final LongHashSet.LongIterator keys = due.iterator();
            while (keys.hasNext()) {
                onDue(keys.nextValue(), time);
            }
            recycle(due);
        }
        onWatermark();
    }

    private void recycle(final LongHashSet keys) {
        if (spareKeySets.size() < MAX_SPARE_KEY_SETS) {
            keys.clear();
            spareKeySets.push(keys);
        }
    }

    /** Registrations in the timer wheel (stale ones included): for tests of the wheel's bound. */
    final int wheelRegistrations() {
        int count = 0;
        for (final LongHashSet keys : dueKeysByTime.values()) {
            count += keys.size();
        }
        return count;
    }

    final int spareKeySetCount() {
        return spareKeySets.size();
    }

    /** Called after the watermark advanced (and what was due was visited); for engines without a timer wheel. */
    void onWatermark() {
    }

    @Override
    public final long watermark() {
        return watermark;
    }

    @Override
    public final long lateEvents() {
        return lateEvents;
    }

    @Override
    public final void writeState(final DataOutput out) throws IOException {
        out.writeLong(watermark);
        writeKeys(out);
    }

    @Override
    public final void readState(final DataInput in) throws IOException {
        dueKeysByTime.values().forEach(this::recycle);
        dueKeysByTime.clear();
        dueTimes.clear();
        watermark = in.readLong();
        restoreKeys(in);
    }

    static String window(final long start, final long end) {
        return "[" + start + ", " + end + ")";
    }
}
