package io.streamgrid.jobs.pattern;

import io.streamgrid.jobs.schema.SchemaRecord;

import java.util.List;

/** The events a partial match of a {@link Pattern} has taken so far, by step; read-only, valid during the call. */
public interface Match {
    /** The events that took {@code step}, in order; empty when none has yet. */
    List<SchemaRecord> events(String step);

    /** The first event that took {@code step}, or null. */
    default SchemaRecord first(final String step) {
        final List<SchemaRecord> events = events(step);
        return events.isEmpty() ? null : events.get(0);
    }

    /** The latest event that took {@code step}, or null. */
    default SchemaRecord last(final String step) {
        final List<SchemaRecord> events = events(step);
        return events.isEmpty() ? null : events.get(events.size() - 1);
    }

    /** Event time of the match's first event. */
    long startTime();
}
