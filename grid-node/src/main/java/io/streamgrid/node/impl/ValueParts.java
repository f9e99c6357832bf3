package io.streamgrid.node.impl;

import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.impl.HeapData;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The state table's protocol for values too large for one Cassandra request (see {@link StateTable}):
 * a value over {@link #PART_BYTES} goes to {@code <table>_parts} under a generation of its own, its
 * row holding a 24-byte marker that names the generation, the part count and the length. Parts
 * first, then the marker, then the deletion of older generations — the marker and the deletion at
 * the generation's timestamp — so a crash between leaves the previous value readable, never a mix,
 * and of two writers of one key the higher generation wins.
 */
final class ValueParts {
    /**
     * Values larger than this (serialized) are stored in parts of this size: half of Cassandra's
     * 16 MiB limits, and above the snapshot entries StreamGrid's own processors write (at most
     * 6 MiB by default, {@code SnapshotEntries.maxBytes}), so a durable job's snapshot costs no extra requests.
     */
    static final int PART_BYTES = 8 << 20;
    /** Parts are read one per page: a response holds at most one. */
    private static final int PARTS_PER_PAGE = 1;
    /** The marker's type id, where a serialized value has its serializer's: no serializer has it (Hazelcast refuses ids below 1 for users' own). */
    private static final int MARKER_TYPE_ID = Integer.MIN_VALUE;
    private static final int MARKER_BYTES = 24;

    /** keyspace.table, for messages. */
    private final String table;
    /** Maps this member wrote or read a value in parts of: their small writes and deletes remove a key's parts too. */
    private final Set<String> mapsWithParts = ConcurrentHashMap.newKeySet();

    ValueParts(final String table) {
        this.table = table;
    }

    /** Whether a key of {@code map} may have parts (this member wrote or read some of the map's since it started). */
    boolean mayHave(final String map) {
        return mapsWithParts.contains(map);
    }

    /** {@code map} was destroyed: its parts are gone with its buckets. */
    void forget(final String map) {
        mapsWithParts.remove(map);
    }

    /**
     * Writes {@code value} as parts of a new generation, then the key's row as a marker naming it,
     * then deletes the key's older generations: until the marker is written the previous value is
     * the one read, and it is never mixed with the new one's parts.
     */
    void write(final StateStatements o, final String map, final int bucket, final byte[] key, final byte[] value,
                              final int ttl) {
        mapsWithParts.add(map);
        // The generation is a timestamp of the bucket's clock: a later value of the key, whoever writes it, has a higher one.
        final long generation = o.clock().next(bucket);
        final int count = (value.length + PART_BYTES - 1) / PART_BYTES;
        final List<BoundStatement> parts = new ArrayList<>(count);
        for (int part = 0; part < count; part++) {
            final int from = part * PART_BYTES;
            parts.add(o.parts().insert().bind(map, bucket, ByteBuffer.wrap(key), generation, part,
                    ByteBuffer.wrap(value, from, Math.min(PART_BYTES, value.length - from)), ttl).setQueryTimestamp(generation));
        }
        AsyncStatements.runAll(o.session(), parts);
        final ByteBuffer marker = ByteBuffer.allocate(MARKER_BYTES).putInt(0).putInt(MARKER_TYPE_ID)
                .putLong(generation).putInt(count).putInt(value.length).flip();
        // The marker and the deletion of older generations carry the generation as their timestamp, so that of two
        // writers of one key (an old owner flushing its write-behind queue while the new owner writes, their clocks
        // interleaving) the higher generation wins both: the marker Cassandra keeps names the parts that survive.
        // With a timestamp of their own, a lower generation's marker could win while the higher one's deletion had
        // removed its parts — a marker naming no parts, the map never loading (seen in a clean-clone run).
        o.session().execute(o.insert().bind(map, bucket, ByteBuffer.wrap(key), marker, ttl).setQueryTimestamp(generation));
        o.session().execute(o.parts().deleteOlder().bind(map, bucket, ByteBuffer.wrap(key), generation).setQueryTimestamp(generation));
    }

    /** Whether a stored value is a marker of a value in parts. */
    static boolean isMarker(final ByteBuffer value) {
        return value.remaining() == MARKER_BYTES && value.getInt(value.position() + 4) == MARKER_TYPE_ID;
    }

    /** The value a marker names, put together from its parts; fails naming the key when a part is missing. */
    Data read(final StateStatements o, final String map, final int bucket, final ByteBuffer key, final ByteBuffer marker) {
        mapsWithParts.add(map);
        final long generation = marker.getLong(marker.position() + 8);
        final int count = marker.getInt(marker.position() + 16);
        final int length = marker.getInt(marker.position() + 20);
        final byte[] value = new byte[length];
        int found = 0;
        for (final Row row : o.session().execute(o.parts().select().bind(map, bucket, key, generation).setPageSize(PARTS_PER_PAGE))) {
            final int part = row.getInt("part");
            final ByteBuffer data = row.getByteBuffer("value");
            final int expected = Math.min(PART_BYTES, length - part * PART_BYTES);
            if (part < 0 || part >= count || data == null || data.remaining() != expected) {
                throw new IllegalStateException("state persistence: " + map + ": part " + part + " of a value stored in " + count
                        + " parts (generation " + generation + ") has " + (data == null ? 0 : data.remaining())
                        + " bytes, expected " + expected + ": the stored value is corrupt");
            }
            data.duplicate().get(value, part * PART_BYTES, expected);
            found++;
        }
        // Parts are distinct (the primary key) and each had its expected size: all of them are the whole value.
        if (found != count) {
            throw new IllegalStateException("state persistence: " + map + ": a value stored in " + count + " parts (generation "
                    + generation + ", bucket " + bucket + ") has " + found + " of them in " + table
                    + "_parts: the stored value is incomplete (its map is not loaded until it is whole)");
        }
        return new HeapData(value);
    }
}
