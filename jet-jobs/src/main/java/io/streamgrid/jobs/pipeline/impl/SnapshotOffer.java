package io.streamgrid.jobs.pipeline.impl;

import com.hazelcast.jet.core.BroadcastKey;

import java.util.List;
import java.util.function.BiPredicate;

/**
 * Offers the states of a processor's {@link PartitionTask}s to Jet's snapshot, each cut into
 * chunks of at most the member's largest snapshot entry ({@link SnapshotChunks}). Jet may refuse an
 * entry (its outbox is full): {@link #offer} then returns false and, called again with the state
 * untouched meanwhile, goes on where it stopped, offering the refused chunk again as the same array
 * (Jet checks it is the same value).
 */
final class SnapshotOffer {
    /** Offers one entry to the snapshot; false when Jet refused it for now. */
    private final BiPredicate<Object, Object> emit;
    /** How chunks go to Jet: serialized already, or as arrays Jet serializes. */
    private final SerializedChunks serializedChunks;
    /** The largest snapshot entry on this member. */
    private final int chunkBytes;
    /** The array full chunks are handed to Jet in when Jet serializes them (one humongous array, not one per chunk). */
    private byte[] fullChunk;
    // The task at the cursor, its state's length once written (-1 before), the next chunk, the chunk Jet has not taken yet.
    private int cursor;
    private int length = -1;
    private int chunk;
    private Object offered;
    /** Bytes of state written by the snapshot being offered. */
    private long bytes;

    SnapshotOffer(final BiPredicate<Object, Object> emit, final SerializedChunks serializedChunks, final int chunkBytes) {
        this.emit = emit;
        this.serializedChunks = serializedChunks;
        this.chunkBytes = chunkBytes;
    }

    /** Whether no snapshot is half offered. */
    boolean idle() {
        return cursor == 0 && length < 0;
    }

    /** Offers every task's state, from where the last call stopped; true once all is taken. */
    boolean offer(final List<? extends PartitionTask> tasks) {
        if (idle()) {
            bytes = 0;
        }
        while (cursor < tasks.size()) {
            final PartitionTask task = tasks.get(cursor);
            if (length < 0) {
                length = task.writeSnapshot();
                chunk = 0;
                bytes += length;
            }
            final int count = SnapshotChunks.count(length, chunkBytes);
            while (chunk < count) {
                final int from = chunk * chunkBytes;
                if (offered == null) {
                    offered = chunk(task, from, Math.min(length - from, chunkBytes));
                }
                if (!emit.test(BroadcastKey.broadcastKey(SnapshotChunks.key(task.partition(), chunk, count)), offered)) {
                    return false;
                }
                offered = null;
                chunk++;
            }
            length = -1;
            cursor++;
        }
        cursor = 0;
        return true;
    }

    /** Bytes of state the last snapshot offered. */
    long bytes() {
        return bytes;
    }

    /** The chunk of {@code length} bytes from {@code from} on of the state {@code task} wrote, as the value to offer. */
    private Object chunk(final PartitionTask task, final int from, final int length) {
        if (!serializedChunks.enabled()) {
            return task.snapshotBytes(from, chunkArray(length));
        }
        final byte[] serialized = new byte[SerializedChunks.HEADER_BYTES + length];
        SerializedChunks.header(serialized, length);
        task.snapshotBytes(from, serialized, SerializedChunks.HEADER_BYTES, length);
        return SerializedChunks.value(serialized);
    }

    /**
     * An array for a chunk of {@code length} bytes. A full chunk goes out in one reused array: "keys
     * and values offered to snapshot are serialized and can be further mutated as soon as this
     * method returns" (Jet's {@code Outbox}).
     */
    private byte[] chunkArray(final int length) {
        if (length != chunkBytes) {
            return new byte[length];
        }
        if (fullChunk == null) {
            fullChunk = new byte[chunkBytes];
        }
        return fullChunk;
    }
}
