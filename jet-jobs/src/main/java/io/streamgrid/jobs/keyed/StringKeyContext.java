package io.streamgrid.jobs.keyed;

/**
 * The context of a {@link StringKeyedFunction}: {@link KeyScope} and the key, a string.
 *
 * @param <S> the per-key state
 */
public interface StringKeyContext<S> extends KeyScope<S> {
    /** The key (the same String instance on every call for the key). */
    String stringKey();
}
