package io.streamgrid.jobs.window.impl;

import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.window.WindowAggregation;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.jobs.window.WindowPolicy;




import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * Keyed event-time windows over one ordered stream (one ingest-log partition), with the watermark
 * and lateness rules of {@link WindowPolicy}. Deterministic: the same events in the same order give
 * the same results, which is what lets a restored job replay to exactly the same state.
 *
 * <p>Single-threaded. State is held in primitive-keyed maps; the per-event path allocates only
 * when a key or pane is new.
 *
 * @param <A> the accumulator
 */
public interface WindowEngine<A> {

    static <A> WindowEngine<A> create(final WindowPolicy policy, final WindowAggregation<A> aggregation,
                                      final WindowListener<A> listener) {
        if (policy.window() instanceof WindowDefinition.Sliding sliding) {
            if (!sliding.isTumbling() && aggregation.deducts()) {
                return new IncrementalSlidingWindowEngine<>(sliding, policy, aggregation, listener);
            }
            return new SlidingWindowEngine<>(sliding, policy, aggregation, listener);
        }
        return new SessionWindowEngine<>((WindowDefinition.Session) policy.window(), policy, aggregation, listener);
    }

    /**
     * Processes one valid event (see {@link SchemaRecord#validate()}) under {@code key} — the
     * schema's long key, or a number standing for a string key — then advances the watermark.
     */
    void onEvent(SchemaRecord event, long key);

    /** {@link #onEvent(SchemaRecord, long)} under the event's own long key. */
    default void onEvent(final SchemaRecord event) {
        onEvent(event, event.keyLong());
    }

    /**
     * Processes one valid event as {@link #onEvent(SchemaRecord, long)} does, leaving the watermark
     * where it is: for a log whose clock its writers keep ({@link #advanceTo}).
     */
    void onEventAtClock(SchemaRecord event, long key);

    /** The watermark moves to {@code watermark}, when that is ahead, emitting what is due (no disorder is taken off). */
    void advanceTo(long watermark);

    /**
     * The partition was idle and its event-time clock stands at {@code eventTime}: the watermark
     * moves to {@code eventTime} minus the allowed disorder if that is ahead, emitting what is due.
     */
    void onHeartbeat(long eventTime);

    /** The stream has ended: the watermark goes to the end of time, every window is emitted and dropped. */
    void onEndOfStream();

    /** The current watermark; {@link Long#MIN_VALUE} before the first event. */
    long watermark();

    /** Keys with state held. */
    int keyCount();

    /** Events reported to {@link WindowListener#onLate} so far (since creation or restore). */
    long lateEvents();

    /** Writes all state (compact binary form) for a snapshot. */
    void writeState(DataOutput out) throws IOException;

    /** Replaces all state with what {@link #writeState} wrote. */
    void readState(DataInput in) throws IOException;
}
