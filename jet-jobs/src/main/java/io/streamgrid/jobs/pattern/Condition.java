package io.streamgrid.jobs.pattern;

import io.streamgrid.jobs.schema.SchemaRecord;

import java.io.Serializable;

/**
 * Whether an event may take a step of a {@link Pattern}, given what the match has taken so far.
 * Runs on the member inside the job, so it must be serializable; it must be a pure function of its
 * arguments (replays after a restart call it again and must decide the same).
 */
@FunctionalInterface
public interface Condition extends Serializable {
    /** Every event of the step's schema may take the step. */
    Condition ANY = (event, match) -> true;

    /**
     * @param event the candidate event (valid only during the call)
     * @param match the events the match has taken so far, by step
     */
    boolean test(SchemaRecord event, Match match);
}
