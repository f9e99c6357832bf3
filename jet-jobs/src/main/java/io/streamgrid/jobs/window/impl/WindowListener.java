package io.streamgrid.jobs.window.impl;

import io.streamgrid.jobs.schema.SchemaRecord;

/**
 * What a {@link WindowEngine} reports. Called synchronously from the engine; arguments are valid
 * only during the call (the accumulator and the event record are reused).
 *
 * @param <A> the accumulator
 */
public interface WindowListener<A> {
    /**
     * A window's result.
     *
     * @param updateSequence 1 for the first result of this window, higher for each correction
     * @param afterWatermark true when the result was produced by late data (a correction, or a
     *                       window first seen after the watermark passed it), false when on time
     */
    void onWindow(long key, long start, long end, A value, int updateSequence, boolean afterWatermark);

    /** A session window reported earlier under {@code start} merged into another: remove it. */
    void onRetract(long key, long start);

    /** The engine holds nothing more of {@code key}: no window, no correction still possible. */
    default void onKeyDropped(final long key) {
    }

    /** An event too late for (some of) its windows, with the reason. */
    void onLate(SchemaRecord event, long watermark, String reason);
}
