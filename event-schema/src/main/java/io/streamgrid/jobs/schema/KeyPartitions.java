package io.streamgrid.jobs.schema;

import io.streamgrid.jobs.schema.FieldType;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.DirectBuffer;

import java.nio.ByteOrder;

/**
 * Which partition of a log a key belongs to: a mixing hash of a long key, or of a string key's
 * UTF-8 bytes, modulo the partition count — the same in every kind of log (Chronicle, Kafka), and
 * part of the log format: it never changes.
 */
public final class KeyPartitions {
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private KeyPartitions() {
    }

    /** The partition of {@code record}'s key in a log of {@code partitions} partitions. */
    public static int partitionOf(final SchemaRecord record, final int partitions) {
        final SchemaLayout layout = record.layout();
        final int key = layout.keyIndex();
        final long hash = layout.field(key).type() == FieldType.STRING ? stringFieldHash(record, key) : mix(record.getLong(key));
        return (int) Math.floorMod(hash, (long) partitions);
    }

    /** {@link #stringKeyHash} of the string field at {@code index} of {@code record}, read in place (no String made). */
    public static long stringFieldHash(final SchemaRecord record, final int index) {
        final int at = record.offset() + record.layout().offset(index);
        return stringKeyHash(record.buffer(), at + Short.BYTES, record.buffer().getShort(at, ORDER) & 0xffff);
    }

    /** The partition of a long key in a log of {@code partitions} partitions. */
    public static int partitionOf(final long key, final int partitions) {
        return (int) Math.floorMod(mix(key), (long) partitions);
    }

    /** A 64-bit finalising mix (MurmurHash3's fmix64): nearby keys land in unrelated partitions. Part of the log format. */
    public static long mix(final long value) {
        long h = value;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }

    /** The hash of a string key's UTF-8 bytes (64-bit FNV-1a, then mixed). Part of the log format. */
    public static long stringKeyHash(final DirectBuffer buffer, final int offset, final int length) {
        long hash = 0xcbf29ce484222325L;
        for (int i = 0; i < length; i++) {
            hash ^= buffer.getByte(offset + i) & 0xff;
            hash *= 0x100000001b3L;
        }
        return mix(hash);
    }
}
