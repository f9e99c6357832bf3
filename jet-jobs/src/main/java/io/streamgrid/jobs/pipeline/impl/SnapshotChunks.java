package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.sink.SnapshotEntries;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A partition's snapshot travels to Jet as chunks of at most the member's
 * {@link SnapshotEntries#maxBytes} (the processor reads it when it starts), each its own
 * snapshot entry, and this puts them together again on restore.
 *
 * <p>Why chunks: a window state of millions of slices is tens of megabytes per partition. As one
 * entry it was copied whole into a new array, then again into Jet's snapshot writer, whose buffer
 * grew to hold it at every snapshot (about a third of the snapshot's time in the exactly-once
 * benchmark's profile). Chunks are copied once, straight from the task's reusable buffer, and fit
 * the writer's buffer as they are.
 *
 * <p>Each chunk's key is one long: partition, number of chunks, index — so a restore knows when a
 * partition is complete whatever order Jet hands the entries in, and a missing chunk is an error
 * naming the partition, never a silently shorter state.
 *
 * <p>Why that size ({@link SnapshotEntries}): three quarters of a G1 heap region (at most 6 MiB), so
 * that chunks are humongous objects no young collection copies, and small enough for Cassandra to
 * take as one row when snapshots are persisted. Larger than Jet's snapshot writer buffer (128 KiB),
 * a chunk goes to the snapshot map as its own entry, copied once.
 */
final class SnapshotChunks {
    private static final int INDEX_BITS = 20;
    private static final long INDEX_MASK = (1L << INDEX_BITS) - 1;
    private static final int MAX_PARTITION = (1 << 23) - 1;

    /** Partitions some of whose chunks came: the chunks by index, and how many are still to come. */
    private final Map<Integer, Partial> pending = new HashMap<>();

    private static final class Partial {
        final byte[][] chunks;
        int missing;

        Partial(final int count) {
            chunks = new byte[count][];
            missing = count;
        }
    }

    /** How many chunks of {@code chunkBytes} a snapshot of {@code length} bytes takes (at least one: an entry says the partition was saved). */
    static int count(final int length, final int chunkBytes) {
        return Math.max(1, (length + chunkBytes - 1) / chunkBytes);
    }

    /** The snapshot key of chunk {@code index} of {@code count} of {@code partition}'s snapshot. */
    static long key(final int partition, final int index, final int count) {
        if (partition < 0 || partition > MAX_PARTITION) {
            throw new IllegalArgumentException("partition " + partition + " out of the snapshot key's range 0.." + MAX_PARTITION);
        }
        if (count < 1 || count > INDEX_MASK || index < 0 || index >= count) {
            throw new IllegalArgumentException("chunk " + index + " of " + count + " out of the snapshot key's range (at most "
                    + INDEX_MASK + " chunks)");
        }
        return ((long) partition << (2 * INDEX_BITS)) | ((long) count << INDEX_BITS) | index;
    }

    static int partitionOf(final long key) {
        return (int) (key >>> (2 * INDEX_BITS));
    }

    static int indexOf(final long key) {
        return (int) (key & INDEX_MASK);
    }

    static int countOf(final long key) {
        return (int) ((key >>> INDEX_BITS) & INDEX_MASK);
    }

    /**
     * Takes one restored chunk; returns its partition's whole snapshot when this was the last chunk
     * missing, else null.
     *
     * @throws IllegalStateException if the same chunk comes twice, or chunks of one partition
     *                               disagree on their number (entries of two snapshots mixed)
     */
    byte[] add(final long key, final byte[] chunk) {
        final int partition = partitionOf(key);
        final int count = countOf(key);
        final Partial partial = pending.computeIfAbsent(partition, p -> new Partial(count));
        final byte[][] chunks = partial.chunks;
        if (chunks.length != count) {
            throw new IllegalStateException("snapshot of partition " + partition + " has chunks saying " + chunks.length
                    + " and " + count + " chunks in all");
        }
        final int index = indexOf(key);
        if (chunks[index] != null) {
            throw new IllegalStateException("snapshot of partition " + partition + " has chunk " + index + " twice");
        }
        chunks[index] = chunk;
        if (--partial.missing > 0) {
            return null;
        }
        pending.remove(partition);
        int length = 0;
        for (final byte[] part : chunks) {
            length += part.length;
        }
        final byte[] whole = new byte[length];
        int at = 0;
        for (final byte[] part : chunks) {
            System.arraycopy(part, 0, whole, at, part.length);
            at += part.length;
        }
        return whole;
    }

    /** Partitions some but not all of whose chunks were restored. */
    Set<Integer> incomplete() {
        return new TreeSet<>(pending.keySet());
    }
}
