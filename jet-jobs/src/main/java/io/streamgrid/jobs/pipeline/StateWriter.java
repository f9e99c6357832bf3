package io.streamgrid.jobs.pipeline;

import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;

/**
 * Where a windowed job's results go: named IMaps, written after the fact by the job's sink, and
 * the logs the job emits into ({@link WindowedJobBuilder#emits}), exactly once across restores.
 */
public interface StateWriter {
    /** Sets {@code key} to {@code value} in map {@code map}; a later write to the same key wins. */
    void put(String map, Object key, Object value);

    /** Removes {@code key} from map {@code map}. */
    void remove(String map, Object key);

    /**
     * The record to fill for an event of {@code schema}, one the job emits: one per schema, reused —
     * fill it, then {@link #emit} it before asking for the next.
     *
     * @throws IllegalArgumentException when the job does not emit {@code schema}
     * @throws UnsupportedOperationException where results cannot be emitted (a writer of maps only)
     */
    default SchemaRecord newEvent(final EventSchema schema) {
        throw new UnsupportedOperationException("this writer writes maps only: a windowed job emits events into logs it declares "
                + "(WindowedJobBuilder.emits)");
    }

    /**
     * Appends {@code event} (filled from {@link #newEvent}) to its schema's log, under its key's
     * partition. Give it an event time no earlier than the window's end: readers of the log are
     * clocked by the job's watermark, so an earlier one may be late for them.
     *
     * @throws IllegalArgumentException when the event is not valid or was not made by {@link #newEvent}
     */
    default void emit(final SchemaRecord event) {
        throw new UnsupportedOperationException("this writer writes maps only: a windowed job emits events into logs it declares "
                + "(WindowedJobBuilder.emits)");
    }
}
