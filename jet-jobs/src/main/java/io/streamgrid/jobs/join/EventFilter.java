package io.streamgrid.jobs.join;

import io.streamgrid.jobs.schema.SchemaRecord;

import java.io.Serializable;

/**
 * Which events of a side take part in a join, or are copied by a re-key: the selection a query makes
 * before it joins (auctions of one category, sellers of three states). An event refused here is as
 * if it were not in the stream: it meets no partner, is not kept for partners to come, and is not
 * copied — so the join's state, its snapshots and a re-keyed log hold only events that can pair.
 * Deterministic, as the join's function must be: a restored job must select the same events.
 */
@FunctionalInterface
public interface EventFilter extends Serializable {
    /** Every event. */
    EventFilter ALL = event -> true;

    /**
     * Whether {@code event} takes part. The record is a flyweight valid only during the call. An
     * exception fails the job (it is then suspended with its last snapshot).
     */
    boolean keep(SchemaRecord event);
}
