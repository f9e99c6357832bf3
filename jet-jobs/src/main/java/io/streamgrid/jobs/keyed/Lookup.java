package io.streamgrid.jobs.keyed;

import java.io.Serializable;
import java.util.Objects;

/**
 * An enrichment of every event of a keyed job from a dimension map held in the grid
 * ({@code dim.*}: instrument reference data, user demographics): the event's {@code keyField} is
 * looked up in {@code map} before the function is called, and the value found is
 * {@link KeyedContext#lookup(String)}.
 *
 * <p>What an event sees: each member holds a local replica of the map, loaded when the job starts
 * and kept current by the map's entry events — no remote call per event. An event sees the value
 * its member's replica holds when the event is processed: a write to the map reaches the replicas
 * within milliseconds, asynchronously, so an event processed just after a write may still see the
 * previous value; per key the values an event stream sees never go back to an older one. Several
 * keys are not updated atomically together. A job restored from a snapshot replays its events
 * against the dimension as it is then, not as it was — enrichment is "latest known", not
 * versioned by event time.
 *
 * @param map       the dimension map, named {@code dim.<something>}; its keys are Strings for a
 *                  string field and Longs for an int, long or timestamp field
 * @param keyField  the event field whose value is the map key
 * @param onMissing what happens to an event whose key is not in the map
 */
public record Lookup(String map, String keyField, OnMissing onMissing) implements Serializable {
    /** What happens to an event whose key is not in the dimension map. */
    public enum OnMissing {
        /** The function is called; {@link KeyedContext#lookup(String)} returns null. */
        NULL,
        /**
         * The function is not called; the event goes to {@code unmatched.<job>} with the reason
         * ({@link io.streamgrid.jobs.pipeline.UnmatchedEvent}).
         */
        SIDE_OUTPUT
    }

    public Lookup {
        Objects.requireNonNull(map, "map");
        Objects.requireNonNull(keyField, "keyField");
        Objects.requireNonNull(onMissing, "onMissing");
        checkDimensionMap(map);
    }

    static void checkDimensionMap(final String map) {
        if (!map.startsWith("dim.") || map.length() == 4) {
            throw new IllegalArgumentException("lookup map '" + map + "' must be a dimension map named dim.<name>");
        }
    }
}
