package io.streamgrid.jobs.keyed;

import io.streamgrid.jobs.schema.SchemaRecord;

import java.io.Serializable;

/**
 * Your per-key logic. One instance per ingest-log partition, called on one thread, for the events
 * of that partition in log order (or in event-time order: {@link KeyedJob.Builder#inEventTimeOrder});
 * the {@link KeyedContext} is bound to the event's key. The
 * function itself should hold no state: what it keeps goes into {@link KeyedContext#state()},
 * which is snapshotted, so a restored job continues exactly.
 *
 * <p>Determinism: given the same events in the same order, the function must make the same calls
 * (no wall clock, no randomness, no outside reads) — a restored job replays the events after the
 * snapshot and must write the same results. Processing-time timers are the exception this API
 * offers, with that caveat.
 *
 * <p>For a schema with one kind of key, {@link LongKeyedFunction} and {@link StringKeyedFunction}
 * are the same contract typed by the key ({@link KeyedJob.Builder#longKeyed}, {@link KeyedJob.Builder#stringKeyed}).
 *
 * <p>An exception thrown here fails the job; it is then suspended with its last snapshot (resume
 * with {@code streamgrid job resume NAME} once fixed). Events that should not stop the job
 * belong in a side output written with {@link KeyedContext#put}.
 *
 * @param <S> the per-key state
 */
public interface KeyedFunction<S> extends Serializable {
    /**
     * One event of the context's key. {@code event} is a flyweight valid only during the call: copy
     * out what you keep.
     */
    void onEvent(SchemaRecord event, KeyedContext<S> context);

    /** An event-time timer of the context's key fired: the watermark reached {@code time}. */
    default void onTimer(final long time, final KeyedContext<S> context) {
    }

    /** A processing-time timer fired: the wall clock reached {@code wallClockMs}. */
    default void onProcessingTimer(final long wallClockMs, final KeyedContext<S> context) {
    }
}
