package io.streamgrid.jobs.pipeline;

import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.window.WindowAggregation;
import io.streamgrid.jobs.window.WindowPolicy;

import java.util.List;

/**
 * A named job that windows the events of one schema, read from that schema's log, by the schema's
 * key (a long key, or a string key — see {@link ResultHandler#onWindow(String, long, long, Object, int, boolean, StateWriter)}
 * for a handler of your own). Windows run on the same partition runtime as keyed jobs
 * ({@link io.streamgrid.jobs.keyed.KeyedJob}): the same log reading, time rules, side outputs and
 * snapshots. The definition travels to the members inside the Jet job, hence serializable;
 * it holds settings only, never state.
 *
 * <p>Maps it writes: {@code state.<name>} (its results, or as its handler says), {@code late.<name>}
 * (events too late for their windows, keyed {@code p<partition>-<log index>}, see {@link LateEvent})
 * and {@code rejected.<name>} (records that are not valid events, see {@link RejectedRecord}).
 *
 * @param <A> the window accumulator
 */
public interface WindowedJob<A> extends JobDefinition {
    /**
     * A windowed job over {@code schema} (keyed by a long or a string) in a few lines: windows, time rules, an
     * aggregation, where results go ({@link WindowedJobBuilder}).
     */
    static WindowedJobBuilder builder(final String name, final EventSchema schema) {
        return new WindowedJobBuilder(name, schema);
    }

    /**
     * The schema of the events this job reads, from its log under the ingest directory
     * ({@link io.streamgrid.jobs.ingest.SchemaLog#directoryOf}); records that are not valid events of
     * it are rejected with a reason. Its key is a long or a string.
     */
    EventSchema schema();

    @Override
    default List<EventSchema> schemas() {
        return List.of(schema());
    }

    /** The schema it reads, then those it emits into ({@link StateWriter#emit}). */
    @Override
    default List<EventSchema> declaredSchemas() {
        final List<EventSchema> all = new java.util.ArrayList<>(schemas());
        all.addAll(emits());
        return List.copyOf(all);
    }

    WindowPolicy policy();

    WindowAggregation<A> aggregation();

    /** A handler for one ingest-log partition. */
    ResultHandler<A> newResultHandler();

    default String stateMap() {
        return "state." + name();
    }

    /** Every {@code state.*} map the job writes; each gets {@code state-ttl-seconds} when the job's settings set one. */
    @Override
    default List<String> stateMaps() {
        return List.of(stateMap());
    }

    @Override
    default String lateMap() {
        return "late." + name();
    }

    @Override
    default String rejectedMap() {
        return "rejected." + name();
    }
}
