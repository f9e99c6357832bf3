package io.streamgrid.jobs.pipeline;

/**
 * One window's result, as a windowed job made by {@link WindowedJob#builder} hands it to its result
 * function: the key, the window {@code [start, end)}, its value, and how many times it was emitted.
 *
 * @param key            the schema's (long) key
 * @param value          the window's accumulator — the engine's own object, valid only during the
 *                       call: read what the result needs from it, never keep it
 * @param updateSequence 1 for the on-time result, one more for each correction by a late event
 * @param late           whether this result is a correction emitted after the watermark passed the window
 * @param <A>            the accumulator
 */
public record WindowResult<A>(long key, long start, long end, A value, int updateSequence, boolean late) {
    /** The state-map key a built job writes this result under: {@code "<key>@<start>"}, readable from any client. */
    public String stateKey() {
        return stateKey(key, start);
    }

    /** {@link #stateKey()} of the window of {@code key} starting at {@code start}. */
    public static String stateKey(final long key, final long start) {
        return key + "@" + start;
    }
}
