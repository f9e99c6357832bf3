package io.streamgrid.jobs.window;

import io.streamgrid.jobs.schema.SchemaRecord;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * How a window's value is built from its events. The accumulator {@code A} is mutable and owned by
 * the window engine; one exists per key and pane (a slice of a sliding window, a tumbling window, or
 * a session), not per event.
 *
 * @param <A> the accumulator
 */
public interface WindowAggregation<A> {
    A create();

    /** Adds one event; called on the hot path, so it should not allocate. */
    void accumulate(A accumulator, SchemaRecord event);

    /** Adds {@code other} into {@code target}: slices into a sliding window, sessions that merge. */
    void combine(A target, A other);

    /**
     * Whether {@link #deduct} is supported. When it is, a sliding window's value is kept up to date
     * incrementally — one combine and one deduct per slide — instead of being rebuilt from all its
     * slices at every emission.
     */
    default boolean deducts() {
        return false;
    }

    /** Removes {@code other}'s events from {@code target}: the inverse of {@link #combine}. */
    default void deduct(final A target, final A other) {
        throw new UnsupportedOperationException("bug: deduct called on an aggregation that does not deduct");
    }

    /**
     * Empties {@code accumulator} so the engine can use it again, for any key and pane, as if just
     * {@link #create created}; returns whether it did. A sliding window's slices die as fast as they
     * are made, and each holds an accumulator per key: an engine that reuses those of dropped slices
     * allocates nothing per slice, and the collector no longer copies every live accumulator from
     * the young generation to the old. The default, {@code false}, keeps every accumulator fresh
     * from {@link #create}: correct for any accumulator, only slower.
     */
    default boolean reset(final A accumulator) {
        return false;
    }

    /**
     * Writes the accumulator to a snapshot; {@link #read} must restore an equal one. Every slice of
     * every key is written at every snapshot, so bytes count: {@link VarLongs} writes small numbers
     * (counts, sums of small values) in a byte or two instead of eight.
     */
    void write(A accumulator, DataOutput out) throws IOException;

    A read(DataInput in) throws IOException;
}
