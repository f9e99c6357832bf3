package io.streamgrid.jobs.keyed;

import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;

import java.io.Serializable;
import java.util.Objects;

/**
 * An enrichment of every event of a keyed job from a dimension map held in the grid
 * ({@code dim.*}: instrument reference data, user demographics): the event's {@code keyField} is
 * looked up in {@code map} before the function is called, and the value found is
 * {@link KeyedContext#lookup(String)}. Two kinds, chosen per lookup:
 *
 * <p><b>Latest known</b> ({@link KeyedJob.Builder#lookup}, the cheap one): the map holds one value
 * per key. Each member holds a local replica of the map, loaded when the job starts and kept current
 * by the map's entry events — no remote call per event. An event sees the value its member's replica
 * holds when the event is processed: a write to the map reaches the replicas within milliseconds,
 * asynchronously, so an event processed just after a write may still see the previous value; per
 * key the values an event stream sees never go back to an older one. Several keys are not updated
 * atomically together. A job restored from a snapshot, and a replay, look events up in the
 * dimension as it is then, not as it was: the results may differ from the first run's.
 *
 * <p><b>As of the event's time</b> ({@link KeyedJob.Builder#lookupAsOfEventTime}, a temporal join):
 * the map holds versions, each under {@link #versionKey versionKey(key, validFromMs)} (the text
 * {@code "<key>@<validFromMs>"}), and an event at time t sees the version of its key with the latest
 * {@code validFromMs} at or before t — so a replay, and a restored job, see what the live run saw,
 * and reproduce its results. That holds for every version written before the events of its time
 * are processed (a price list effective from midnight, written before midnight). A version written
 * later — valid from a time that events were already looked up at — reaches only the events processed
 * after it arrives, and every event of its time in a replay: the member logs it as a backdated
 * version, naming key and times. Versions are kept until deleted; delete one only when no replay
 * will need it. An event before a key's first version finds none.
 *
 * @param map           the dimension map, named {@code dim.<something>}; its keys are Strings for a
 *                      string field and Longs for an int, long or timestamp field (latest known), or
 *                      version keys (as of event time)
 * @param keyField      the event field whose value is the map key
 * @param onMissing     what happens to an event whose key is not in the map (or has no version yet)
 * @param asOfEventTime whether the lookup is versioned by event time rather than latest known
 * @param valueSchema   the schema of the map's values when they are records ({@link SchemaRecord}
 *                      bytes), else null (values of the job's own classes)
 */
public record Lookup(String map, String keyField, OnMissing onMissing, boolean asOfEventTime, EventSchema valueSchema)
        implements Serializable {
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

    /** A latest-known lookup of values of the job's own classes. */
    public Lookup(final String map, final String keyField, final OnMissing onMissing) {
        this(map, keyField, onMissing, false, null);
    }

    /**
     * The key of the version of {@code key} valid from {@code validFromMs} in a dimension map looked
     * up as of event time: {@code "<key>@<validFromMs>"} ({@code key} a String, or a long for
     * an int, long or timestamp key field).
     */
    public static String versionKey(final Object key, final long validFromMs) {
        return key + "@" + validFromMs;
    }

    /**
     * Refuses a map name that is not a dimension map's ({@code dim.<name>}).
     *
     * @throws IllegalArgumentException naming the map and the rule
     */
    public static void checkDimensionMap(final String map) {
        if (!map.startsWith("dim.") || map.length() == 4) {
            throw new IllegalArgumentException("lookup map '" + map + "' must be a dimension map named dim.<name>");
        }
    }
}
