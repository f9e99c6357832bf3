package io.streamgrid.jobs.pipeline;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * Turns a windowed job's window results into state-map writes, or events it emits into other
 * logs ({@link StateWriter#emit}). One instance per ingest-log
 * partition; it may keep keyed state of its own (a baseline per key, say), which it writes to and
 * reads from the job's snapshots so that a restored job continues exactly.
 *
 * @param <A> the window accumulator
 */
public interface ResultHandler<A> {
    /** See {@link io.streamgrid.jobs.window.WindowListener#onWindow}; {@code value} is valid only during the call. */
    void onWindow(long key, long start, long end, A value, int updateSequence, boolean afterWatermark, StateWriter out);

    /** A session reported under {@code start} merged into another. */
    default void onRetract(final long key, final long start, final StateWriter out) {
        throw new UnsupportedOperationException("bug: this job has no session windows, yet a window was retracted");
    }

    /**
     * A window's result for a schema with a string key. The built-in handlers take both kinds;
     * one of your own for a string-keyed schema implements this (and {@link #onRetract(String, long, StateWriter)}
     * for sessions).
     */
    default void onWindow(final String key, final long start, final long end, final A value, final int updateSequence,
                          final boolean afterWatermark, final StateWriter out) {
        throw new UnsupportedOperationException(getClass().getName() + " handles long keys only: implement "
                + "onWindow(String key, ...) for a schema with a string key");
    }

    /** A session of a string key reported under {@code start} merged into another. */
    default void onRetract(final String key, final long start, final StateWriter out) {
        throw new UnsupportedOperationException(getClass().getName() + " handles long keys only: implement "
                + "onRetract(String key, ...) for sessions of a schema with a string key");
    }

    /**
     * The partition's watermark moved to {@code watermark}: a place to expire the handler's own
     * keyed state by event time (so that replays expire the same).
     */
    default void onWatermark(final long watermark, final StateWriter out) {
    }

    /** Writes the handler's own state to a snapshot. */
    default void writeState(final DataOutput out) throws IOException {
    }

    /** Restores what {@link #writeState} wrote. */
    default void readState(final DataInput in) throws IOException {
    }
}
