package io.streamgrid.jobs.keyed;

import io.streamgrid.jobs.schema.SchemaRecord;

import java.io.Serializable;

/**
 * A {@link KeyedFunction} for a schema with a string key, typed by it: its context offers the key as a
 * string only ({@link StringKeyContext}), and {@link KeyedJob.Builder#stringKeyed} refuses it for a
 * schema keyed otherwise when the job is built. Everything else is as {@link KeyedFunction}'s
 * contract says (one instance per partition, deterministic, exceptions fail the job).
 *
 * @param <S> the per-key state
 */
public interface StringKeyedFunction<S> extends Serializable {
    /** One event of the context's key; {@code event} is a flyweight valid only during the call. */
    void onEvent(SchemaRecord event, StringKeyContext<S> context);

    /** An event-time timer of the context's key fired: the watermark reached {@code time}. */
    default void onTimer(final long time, final StringKeyContext<S> context) {
    }

    /** A processing-time timer fired: the wall clock reached {@code wallClockMs}. */
    default void onProcessingTimer(final long wallClockMs, final StringKeyContext<S> context) {
    }
}
