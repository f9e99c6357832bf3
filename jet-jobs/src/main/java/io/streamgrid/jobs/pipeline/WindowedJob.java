package io.streamgrid.jobs.pipeline;

import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.window.WindowAggregation;
import io.streamgrid.jobs.window.WindowPolicy;

import java.io.Serializable;
import java.util.List;

/**
 * A named job that windows one event type read from an ingest log. The definition travels to the
 * members inside the Jet job, hence {@link Serializable}; it holds settings only, never state.
 *
 * <p>Maps it writes: {@code state.<name>} (its results, or as its handler says), {@code late.<name>}
 * (events too late for their windows, keyed {@code p<partition>-<log index>}, see {@link LateEvent})
 * and {@code rejected.<name>} (records that are not valid events, see {@link RejectedRecord}).
 *
 * @param <A> the window accumulator
 */
public interface WindowedJob<A> extends Serializable {
    /** The job's name, also the suffix of its maps. */
    String name();

    /** The only event type this job reads; records of other types are rejected with a reason. */
    EventType eventType();

    WindowPolicy policy();

    WindowAggregation<A> aggregation();

    /** A handler for one ingest-log partition. */
    ResultHandler<A> newResultHandler();

    default String stateMap() {
        return "state." + name();
    }

    /** Every {@code state.*} map the job writes; each gets {@code state-ttl-seconds} when the job's settings set one. */
    default List<String> stateMaps() {
        return List.of(stateMap());
    }

    default String lateMap() {
        return "late." + name();
    }

    default String rejectedMap() {
        return "rejected." + name();
    }
}
