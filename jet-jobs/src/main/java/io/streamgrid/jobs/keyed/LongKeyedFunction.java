package io.streamgrid.jobs.keyed;

/**
 * A function for a schema with a long key ({@link KeyedJob.Builder#longKeyed}): its context has the
 * key as a long only ({@link LongKeyContext}). The contract is {@link KeyTypedFunction}'s.
 *
 * @param <S> the per-key state
 */
public interface LongKeyedFunction<S> extends KeyTypedFunction<S, LongKeyContext<S>> {
}
