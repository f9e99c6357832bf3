package io.streamgrid.jobs.pipeline;

/**
 * One window's result, as a windowed job made by {@link WindowedJob#builder} hands it to its result
 * function: the key, the window {@code [start, end)}, its value, and how many times it was emitted.
 *
 * @param key            the schema's key when it is a long; 0 for a string key (see {@code stringKey})
 * @param value          the window's accumulator — the engine's own object, valid only during the
 *                       call: read what the result needs from it, never keep it
 * @param updateSequence 1 for the on-time result, one more for each correction by a late event
 * @param late           whether this result is a correction emitted after the watermark passed the window
 * @param stringKey      the schema's key when it is a string; null for a long key
 * @param <A>            the accumulator
 */
public record WindowResult<A>(long key, long start, long end, A value, int updateSequence, boolean late, String stringKey) {
    /** The result of a window of a long key. */
    public WindowResult(final long key, final long start, final long end, final A value, final int updateSequence,
                        final boolean late) {
        this(key, start, end, value, updateSequence, late, null);
    }

    /** The key as text: the string key, or the long key's digits. */
    public String keyText() {
        return stringKey != null ? stringKey : Long.toString(key);
    }

    /** The state-map key a built job writes this result under: {@code "<key>@<start>"}, readable from any client. */
    public String stateKey() {
        return keyText() + "@" + start;
    }

    /** {@link #stateKey()} of the window of {@code key} starting at {@code start}. */
    public static String stateKey(final long key, final long start) {
        return key + "@" + start;
    }

    /** {@link #stateKey()} of the window of string key {@code key} starting at {@code start}. */
    public static String stateKey(final String key, final long start) {
        return key + "@" + start;
    }
}
