package io.streamgrid.jobs.keyed;

/**
 * What a {@link KeyedFunction} sees and does for the key it is called for ({@link KeyScope}), with
 * the key of either kind: {@link #longKey()} for a schema with a long key, {@link #stringKey()} for
 * one with a string key — the other one throws. A function written for one kind of key is better
 * typed by it ({@link LongKeyedFunction}, {@link StringKeyedFunction}): the wrong key is then a
 * compile-time error, and the wrong schema a build-time one. Valid only during the call; not
 * thread-safe.
 *
 * @param <S> the per-key state
 */
public interface KeyedContext<S> extends LongKeyContext<S>, StringKeyContext<S> {
    /** The key, for a schema with a long key. @throws IllegalStateException for a string key */
    @Override
    long longKey();

    /** The key, for a schema with a string key (the same String instance on every call for the key). @throws IllegalStateException for a long key */
    @Override
    String stringKey();
}
