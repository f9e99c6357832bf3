package io.streamgrid.jobs.keyed;

/**
 * The context of a {@link LongKeyedFunction}: {@link KeyScope} and the key, a long.
 *
 * @param <S> the per-key state
 */
public interface LongKeyContext<S> extends KeyScope<S> {
    /** The key. */
    long longKey();
}
