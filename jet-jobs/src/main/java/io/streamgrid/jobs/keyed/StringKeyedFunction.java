package io.streamgrid.jobs.keyed;

/**
 * A function for a schema with a string key ({@link KeyedJob.Builder#stringKeyed}): its context has the
 * key as a string only ({@link StringKeyContext}). The contract is {@link KeyTypedFunction}'s.
 *
 * @param <S> the per-key state
 */
public interface StringKeyedFunction<S> extends KeyTypedFunction<S, StringKeyContext<S>> {
}
