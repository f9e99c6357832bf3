package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.Lookup;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;

import java.util.Arrays;
import java.util.List;

/**
 * A keyed job's dimension maps on one partition: the lookups made for each record before the
 * function sees it (their key fields resolved once per schema read), what they found, and reads by
 * key ({@link KeyedJob#reads()}) — all from the member's {@link DimensionReplica}s.
 */
final class RecordLookups {
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
    }

    /**
     * Makes every lookup for {@code record} (of the job's schema {@code input}); returns -1, or the
     * index of a lookup whose key is missing and that side-outputs such events (then nothing found is kept).
     */
    int makeAll(final SchemaRecord record, final int input) {
        for (int i = 0; i < lookups.length; i++) {
            final Object key = keyOf(record, input, i);
            found[i] = asOfEventTime[i] ? replicas[i].getAsOf(key, record.eventTime()) : replicas[i].get(key);
            if (found[i] == null && lookups[i].onMissing() == Lookup.OnMissing.SIDE_OUTPUT) {
                clear();
                return i;
            }
        }
        return -1;
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
