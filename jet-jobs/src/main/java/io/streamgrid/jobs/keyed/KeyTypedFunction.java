package io.streamgrid.jobs.keyed;

import io.streamgrid.jobs.schema.SchemaRecord;

import java.io.Serializable;

/**
 * A {@link KeyedFunction} typed by its schema's kind of key: its context {@code C} offers the key of
 * that kind only — {@link LongKeyedFunction} and {@link StringKeyedFunction} name the two — and
 * {@link KeyedJob.Builder#longKeyed} / {@link KeyedJob.Builder#stringKeyed} refuse it for a schema
 * keyed otherwise when the job is built. Everything else is as {@link KeyedFunction}'s contract
 * says (one instance per partition, deterministic, exceptions fail the job).
 *
 * @param <S> the per-key state
 * @param <C> the context, with the key of the schema's kind
 */
public interface KeyTypedFunction<S, C extends KeyScope<S>> extends Serializable {
    /** One event of the context's key; {@code event} is a flyweight valid only during the call. */
    void onEvent(SchemaRecord event, C context);

    /** An event-time timer of the context's key fired: the watermark reached {@code time}. */
    default void onTimer(final long time, final C context) {
    }

    /** A processing-time timer fired: the wall clock reached {@code wallClockMs}. */
    default void onProcessingTimer(final long wallClockMs, final C context) {
    }
}
