package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.Lookup;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;

import org.agrona.concurrent.UnsafeBuffer;

import java.util.Arrays;
import java.util.List;
import java.util.logging.Logger;

/**
 * A keyed job's dimension maps on one partition: the lookups made for each record before the
 * function sees it (their key fields resolved once per schema read), what they found, and reads by
 * key ({@link KeyedJob#reads()}) — all from the member's {@link DimensionReplica}s.
 */
final class RecordLookups {
    private static final Logger LOG = Logger.getLogger(RecordLookups.class.getName());

    private final String jobName;
    /** One per lookup, then one per map the job reads by key. */
    private final DimensionReplica[] replicas;
    private final Lookup[] lookups;
    /** Per lookup, whether it is versioned by event time (read per event: an array, not the record). */
    private final boolean[] asOfEventTime;
    private final List<String> dimensionMaps;
    /** Per schema the job reads, per lookup: the field holding the lookup key. */
    private final int[][] keyFields;
    private final Object[] found;
    /** Per lookup of records ({@link Lookup#valueSchema()}), the flyweight its value is read through; else null. */
    private final SchemaRecord[] valueRecords;
    private final UnsafeBuffer[] valueBuffers;
    /** Values that were not records of their lookup's schema, counted as missing (the first one is logged). */
    private long notRecords;

    /** @param replicas one per {@link KeyedJob#lookups()}, then one per {@link KeyedJob#reads()}, in order */
    RecordLookups(final KeyedJob<?> job, final DimensionReplica[] replicas) {
        this.jobName = job.name();
        this.replicas = replicas;
        this.lookups = job.lookups().toArray(new Lookup[0]);
        this.asOfEventTime = new boolean[lookups.length];
        for (int i = 0; i < lookups.length; i++) {
            asOfEventTime[i] = lookups[i].asOfEventTime();
        }
        this.dimensionMaps = job.dimensionMaps();
        this.keyFields = new int[job.schemas().size()][lookups.length];
        for (int s = 0; s < keyFields.length; s++) {
            final SchemaLayout layout = job.schemas().get(s).layout();
            for (int i = 0; i < lookups.length; i++) {
                keyFields[s][i] = layout.indexOf(lookups[i].keyField());
            }
        }
        this.found = new Object[lookups.length];
        this.valueRecords = new SchemaRecord[lookups.length];
        this.valueBuffers = new UnsafeBuffer[lookups.length];
        for (int i = 0; i < lookups.length; i++) {
            if (lookups[i].valueSchema() != null) {
                valueRecords[i] = new SchemaRecord(lookups[i].valueSchema().layout());
                valueBuffers[i] = new UnsafeBuffer(new byte[0]);
            }
        }
    }

    /**
     * Makes every lookup for {@code record} (of the job's schema {@code input}); returns -1, or the
     * index of a lookup whose key is missing and that side-outputs such events (then nothing found is kept).
     */
    int makeAll(final SchemaRecord record, final int input) {
        for (int i = 0; i < lookups.length; i++) {
            final Object key = keyOf(record, input, i);
            found[i] = asOfEventTime[i] ? replicas[i].getAsOf(key, record.eventTime()) : replicas[i].get(key);
            if (found[i] != null && valueRecords[i] != null) {
                found[i] = asRecord(i, key, found[i]);
            }
            if (found[i] == null && lookups[i].onMissing() == Lookup.OnMissing.SIDE_OUTPUT) {
                clear();
                return i;
            }
        }
        return -1;
    }

    /** {@code value} read through lookup {@code i}'s flyweight, or null (counted, the first logged) when it is not a record of its schema. */
    private SchemaRecord asRecord(final int i, final Object key, final Object value) {
        final SchemaRecord valueRecord = valueRecords[i];
        String problem = "a " + value.getClass().getSimpleName() + ", not the bytes of a record";
        if (value instanceof byte[] bytes) {
            valueBuffers[i].wrap(bytes);
            valueRecord.wrap(valueBuffers[i], 0, bytes.length);
            problem = valueRecord.validate();
            if (problem == null && valueRecord.version() > valueRecord.layout().schema().version()) {
                problem = "written with version " + valueRecord.version() + " of the schema, newer than the job's "
                        + valueRecord.layout().schema().version();
            }
            if (problem == null) {
                return valueRecord;
            }
        }
        if (notRecords++ == 0) {
            final String reason = problem;
            LOG.warning(() -> "job " + jobName + ": the value of " + key + " in " + lookups[i].map() + " is not a record of schema "
                    + lookups[i].valueSchema().name() + " (" + reason + "); counted as missing, as every such value will be");
        }
        return null;
    }

    /** The key lookup {@code lookup} looks up for {@code record}: a string, or a long (ints widened). */
    Object keyOf(final SchemaRecord record, final int input, final int lookup) {
        final int field = keyFields[input][lookup];
        return switch (record.layout().field(field).type()) {
            case STRING -> record.getString(field);
            case INT -> (long) record.getInt(field);
            default -> record.getLong(field);
        };
    }

    /** The map lookup {@code lookup} reads. */
    String map(final int lookup) {
        return lookups[lookup].map();
    }

    /** Forgets what the last record's lookups found. */
    void clear() {
        Arrays.fill(found, null);
    }

    /**
     * What the current record's lookup of records in {@code map} found (null: nothing), valid during the call.
     *
     * @throws IllegalArgumentException when the lookup in {@code map} is not declared with a value schema
     */
    SchemaRecord foundRecord(final String map) {
        final int index = dimensionIndex(map);
        if (index >= lookups.length || valueRecords[index] == null) {
            throw new IllegalArgumentException("job " + jobName + " declares no lookup of records in " + map
                    + ": declare it with the values' schema (KeyedJob.Builder.lookup(map, keyField, valueSchema, onMissing)), "
                    + "or read values of your own classes with lookup(map)");
        }
        return (SchemaRecord) found[index];
    }

    /** What the current record's lookup in {@code map} found (null: nothing). */
    @SuppressWarnings("unchecked")
    <V> V found(final String map) {
        final int index = dimensionIndex(map);
        if (index >= lookups.length) {
            throw new IllegalArgumentException("job " + jobName + " reads " + map + " by key only (KeyedJob.Builder.reads): "
                    + "use lookup(map, key), or declare a lookup to have one made per event");
        }
        return (V) found[index];
    }

    /** {@code map}'s value of {@code key} on this member (a map the job looks up or reads). */
    @SuppressWarnings("unchecked")
    <V> V get(final String map, final Object key) {
        return (V) replicas[dimensionIndex(map)].get(key);
    }

    private int dimensionIndex(final String map) {
        final int index = dimensionMaps.indexOf(map);
        if (index < 0) {
            throw new IllegalArgumentException("job " + jobName + " declares no lookup in " + map + " and does not read it; "
                    + "its dimension maps are " + dimensionMaps);
        }
        return index;
    }
}
