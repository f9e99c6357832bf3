package io.streamgrid.sink.impl;

import io.streamgrid.sink.TableSpec;
import org.agrona.ExpandableArrayBuffer;
import org.agrona.collections.IntArrayList;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.IntStream;

/**
 * The writes of one epoch (or of one transaction), coalesced by primary key and kept as bytes in one
 * growing array. An epoch can hold millions of rows until its snapshot completes; kept as objects
 * (the row's values, its key, a map entry) every young collection copied them again, and in the
 * cassandra-sink benchmark's profile those pauses, not the writes, were the sink's largest cost.
 * Rows are turned back into {@link RowWrite}s only a partition at a time, as they are sent.
 *
 * <p>A record: flags (delete, superseded), the byte lengths of its primary key, of the key's
 * partition-key prefix and of the other values, then the primary-key values in key order and the
 * other values in column order. A key written again marks its earlier record superseded; equal
 * values encode to equal bytes (a column always holds one Java type, which {@code TableSpec.check}
 * enforces), so keys are compared as bytes. Once superseded records take more bytes than the live
 * ones (and at least {@value #COMPACT_FROM_BYTES}), the live ones are moved together and the rest
 * dropped: a hot key rewritten all epoch long costs its last write, not every one of them.
 *
 * <p>Numbers are in the platform's byte order (every member of a cluster runs on the same
 * little-endian kind of machine). Not thread-safe: one processor's.
 */
final class EpochWrites {
    private static final int DELETE = 1;
    private static final int SUPERSEDED = 2;
    /** A record's header: flags, then the byte lengths of its key, of the key's partition prefix, of the other values. */
    private static final int KEY_LENGTH_AT = 1;
    private static final int PARTITION_LENGTH_AT = KEY_LENGTH_AT + Integer.BYTES;
    private static final int OTHERS_LENGTH_AT = PARTITION_LENGTH_AT + Integer.BYTES;
    private static final int HEADER = OTHERS_LENGTH_AT + Integer.BYTES;
    /** Superseded bytes below this are left where they are: compacting costs a pass over the live ones. */
    static final int COMPACT_FROM_BYTES = 1 << 20;

    private final int[] keyPositions;
    private final int partitionKeyLength;
    /** Column positions that are not part of the primary key, in column order. */
    private final int[] otherPositions;
    private final ExpandableArrayBuffer bytes = new ExpandableArrayBuffer(1024);
    private int end;
    private int live;
    /** Bytes of superseded records between 0 and {@link #end}. */
    private int supersededBytes;
    /**
     * Open addressing by the key's hash: the hash in the upper half, record offset + 1 in the lower,
     * 0 = free. Keeping the hash spares rehashing the keys' bytes as the table grows and comparing
     * the bytes of keys that only share a slot. Built as rows are added.
     */
    private long[] slots = new long[64];

    /** Writes of rows of {@code table}: its primary key (partition key first) and its other columns. */
    EpochWrites(final TableSpec table) {
        this.keyPositions = table.primaryKeyPositions();
        this.partitionKeyLength = table.partitionKey().size();
        final boolean[] isKey = new boolean[table.columns().size()];
        for (final int position : keyPositions) {
            isKey[position] = true;
        }
        this.otherPositions = IntStream.range(0, isKey.length).filter(i -> !isKey[i]).toArray();
    }

    /** Rows that will be written (a key written twice counts once). */
    int size() {
        return live;
    }

    boolean isEmpty() {
        return live == 0;
    }

    /** Adds a write; an earlier write of the same primary key is replaced (the last write wins, as in the table). */
    void add(final RowWrite write) {
        if (slots == null) {
            throw new IllegalStateException("bug: adding to a transaction's writes, which are only written");
        }
        final int start = end;
        final Object[] values = write.values();
        int at = start + HEADER;
        int partitionBytes = 0;
        for (int i = 0; i < keyPositions.length; i++) {
            at += ColumnValues.put(bytes, at, write.delete() ? values[i] : values[keyPositions[i]]);
            if (i == partitionKeyLength - 1) {
                partitionBytes = at - start - HEADER;
            }
        }
        final int keyBytes = at - start - HEADER;
        if (!write.delete()) {
            for (final int position : otherPositions) {
                at += ColumnValues.put(bytes, at, values[position]);
            }
        }
        bytes.putByte(start, (byte) (write.delete() ? DELETE : 0));
        bytes.putInt(start + KEY_LENGTH_AT, keyBytes);
        bytes.putInt(start + PARTITION_LENGTH_AT, partitionBytes);
        bytes.putInt(start + OTHERS_LENGTH_AT, at - start - HEADER - keyBytes);
        end = at;
        index(start, keyBytes);
        if (supersededBytes >= COMPACT_FROM_BYTES && supersededBytes > end - supersededBytes) {
            compact();
        }
    }

    /** The bytes the writes take now (live and superseded records). */
    int bytesHeld() {
        return end;
    }

    /** Moves the live records to the front, in their order, drops the superseded ones and indexes the live ones again. */
    private void compact() {
        final byte[] array = bytes.byteArray();
        int to = 0;
        for (int record = 0; record < end; ) {
            final int next = next(record);
            if ((bytes.getByte(record) & SUPERSEDED) == 0) {
                System.arraycopy(array, record, array, to, next - record); // to <= record: a move to the left
                to += next - record;
            }
            record = next;
        }
        end = to;
        supersededBytes = 0;
        live = 0;
        Arrays.fill(slots, 0);
        for (int record = 0; record < end; record = next(record)) {
            index(record, keyLength(record));
        }
    }

    private void index(final int record, final int keyBytes) {
        if ((live + 1) * 2 > slots.length) {
            rehash(slots.length * 2);
        }
        final int hash = hash(record + HEADER, keyBytes);
        final long entry = ((long) hash << 32) | (record + 1);
        final int mask = slots.length - 1;
        for (int slot = hash & mask; ; slot = (slot + 1) & mask) {
            final long other = slots[slot];
            if (other == 0) {
                slots[slot] = entry;
                live++;
                return;
            }
            final int otherRecord = (int) other - 1;
            if ((int) (other >>> 32) == hash && sameBytes(otherRecord + HEADER, keyLength(otherRecord), record + HEADER, keyBytes)) {
                bytes.putByte(otherRecord, (byte) (bytes.getByte(otherRecord) | SUPERSEDED));
                supersededBytes += next(otherRecord) - otherRecord;
                slots[slot] = entry;
                return;
            }
        }
    }

    private void rehash(final int capacity) {
        final long[] old = slots;
        slots = new long[capacity];
        final int mask = capacity - 1;
        for (final long entry : old) {
            if (entry != 0) {
                int slot = (int) (entry >>> 32) & mask;
                while (slots[slot] != 0) {
                    slot = (slot + 1) & mask;
                }
                slots[slot] = entry;
            }
        }
    }

    /**
     * Hands the live rows to {@code sink} a partition key at a time, in no particular order; each
     * list is decoded for the call and not kept.
     */
    void forEachPartition(final Consumer<List<RowWrite>> sink) {
        // Sort the live records by their partition key's hash, then split each run of equal hashes by
        // the partition bytes themselves (a run nearly always is one partition).
        final long[] byHash = new long[live];
        int n = 0;
        for (int record = 0; record < end; record = next(record)) {
            if ((bytes.getByte(record) & SUPERSEDED) == 0) {
                byHash[n++] = ((long) hash(record + HEADER, partitionLength(record)) << 32) | record;
            }
        }
        Arrays.sort(byHash, 0, n);
        final boolean[] taken = new boolean[n];
        for (int first = 0; first < n; ) {
            int runEnd = first + 1;
            while (runEnd < n && (byHash[runEnd] >>> 32) == (byHash[first] >>> 32)) {
                runEnd++;
            }
            for (int i = first; i < runEnd; i++) {
                if (taken[i]) {
                    continue;
                }
                final int lead = (int) byHash[i];
                final List<RowWrite> partition = new ArrayList<>(runEnd - i);
                for (int j = i; j < runEnd; j++) {
                    final int record = (int) byHash[j];
                    if (!taken[j] && sameBytes(lead + HEADER, partitionLength(lead), record + HEADER, partitionLength(record))) {
                        taken[j] = true;
                        partition.add(decode(record));
                    }
                }
                sink.accept(partition);
            }
            first = runEnd;
        }
    }

    /** The live rows, decoded (tests and small transactions). */
    List<RowWrite> rows() {
        final List<RowWrite> rows = new ArrayList<>(live);
        for (int record = 0; record < end; record = next(record)) {
            if ((bytes.getByte(record) & SUPERSEDED) == 0) {
                rows.add(decode(record));
            }
        }
        return rows;
    }

    /**
     * The live records' bytes for a snapshot, cut at record boundaries into parts of at most
     * {@code maxPartBytes} bytes each, {@code headroom} of them left free at the start of every part
     * (for its header). A record that does not fit in one part with the headroom gets a part of its
     * own. At least one part, whose records may be none. {@link #appendRestored} reads them back.
     *
     * @throws IllegalArgumentException if {@code maxPartBytes} leaves no room after the headroom
     */
    List<byte[]> liveBytesInParts(final int headroom, final int maxPartBytes) {
        if (maxPartBytes <= headroom) {
            throw new IllegalArgumentException("parts of " + maxPartBytes + " bytes leave no room after a " + headroom + "-byte header");
        }
        final int room = maxPartBytes - headroom;
        // First the parts' lengths, then one array each, filled record by record (superseded
        // records lie between the live ones, so a part's bytes are not one run of the buffer).
        final IntArrayList lengths = new IntArrayList();
        int length = 0;
        for (int record = 0; record < end; record = next(record)) {
            if ((bytes.getByte(record) & SUPERSEDED) == 0) {
                final int recordLength = next(record) - record;
                if (length > 0 && length + recordLength > room) {
                    lengths.addInt(length);
                    length = 0;
                }
                length += recordLength;
            }
        }
        lengths.addInt(length);
        final List<byte[]> parts = new ArrayList<>(lengths.size());
        int part = 0;
        byte[] into = new byte[headroom + lengths.getInt(0)];
        int to = headroom;
        for (int record = 0; record < end; record = next(record)) {
            if ((bytes.getByte(record) & SUPERSEDED) == 0) {
                final int recordLength = next(record) - record;
                if (to == into.length) {
                    parts.add(into);
                    into = new byte[headroom + lengths.getInt(++part)];
                    to = headroom;
                }
                bytes.getBytes(record, into, to, recordLength);
                to += recordLength;
            }
        }
        parts.add(into);
        return parts;
    }

    /** Forgets every write, keeping the memory for the next ones. */
    void clear() {
        if (slots == null) {
            throw new IllegalStateException("bug: clearing a transaction's writes");
        }
        end = 0;
        live = 0;
        supersededBytes = 0;
        Arrays.fill(slots, 0);
    }

    /**
     * Empty writes of {@code table} to restore a transaction into from the parts of its snapshot
     * ({@link #appendRestored}); not indexed, since a restored transaction is only written: adding
     * to it is a bug.
     */
    static EpochWrites restoring(final TableSpec table) {
        final EpochWrites writes = new EpochWrites(table);
        writes.slots = null;
        return writes;
    }

    /**
     * Appends the records of one part {@link #liveBytesInParts} cut: {@code length} bytes of
     * {@code part} from {@code from}.
     *
     * @throws IllegalStateException if these writes are not {@link #restoring} ones
     */
    void appendRestored(final byte[] part, final int from, final int length) {
        if (slots != null) {
            throw new IllegalStateException("bug: restoring into an epoch's writes");
        }
        bytes.putBytes(end, part, from, length);
        final int partEnd = end + length;
        for (int record = end; record < partEnd; record = next(record)) {
            live++;
        }
        end = partEnd;
    }

    private RowWrite decode(final int record) {
        final boolean delete = (bytes.getByte(record) & DELETE) != 0;
        final Object[] values = new Object[delete ? keyPositions.length : keyPositions.length + otherPositions.length];
        int at = record + HEADER;
        for (int i = 0; i < keyPositions.length; i++) {
            final Object value = ColumnValues.get(bytes, at);
            at += ColumnValues.length(bytes, at);
            values[delete ? i : keyPositions[i]] = value;
        }
        if (!delete) {
            for (final int position : otherPositions) {
                values[position] = ColumnValues.get(bytes, at);
                at += ColumnValues.length(bytes, at);
            }
        }
        return new RowWrite(values, delete);
    }

    private int next(final int record) {
        return record + HEADER + keyLength(record) + bytes.getInt(record + OTHERS_LENGTH_AT);
    }

    private int keyLength(final int record) {
        return bytes.getInt(record + KEY_LENGTH_AT);
    }

    private int partitionLength(final int record) {
        return bytes.getInt(record + PARTITION_LENGTH_AT);
    }

    private boolean sameBytes(final int a, final int aLength, final int b, final int bLength) {
        if (aLength != bLength) {
            return false;
        }
        int i = 0;
        for (; i + Long.BYTES <= aLength; i += Long.BYTES) {
            if (bytes.getLong(a + i) != bytes.getLong(b + i)) {
                return false;
            }
        }
        for (; i < aLength; i++) {
            if (bytes.getByte(a + i) != bytes.getByte(b + i)) {
                return false;
            }
        }
        return true;
    }

    /** A hash of {@code length} bytes from {@code from}, eight at a time (keys are a few values of up to 9 bytes each). */
    private int hash(final int from, final int length) {
        long h = length;
        int i = 0;
        for (; i + Long.BYTES <= length; i += Long.BYTES) {
            h = (h ^ bytes.getLong(from + i)) * 0x9E3779B97F4A7C15L;
        }
        for (; i < length; i++) {
            h = (h ^ bytes.getByte(from + i)) * 0x9E3779B97F4A7C15L;
        }
        return (int) (h ^ (h >>> 32));
    }
}
