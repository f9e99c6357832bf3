package io.streamgrid.jobs.window.impl;

import org.agrona.collections.Long2ObjectHashMap;

import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The snapshot encoding of each sealed slice of an {@link IncrementalSlidingWindowEngine} (a slice
 * the watermark has passed), kept from the snapshot that first wrote it (to a {@link CopyableOutput}:
 * the job's; any other output gets every slice encoded afresh), or encoded when the window moved
 * over it ({@link #encodesWhenSealed}). A sealed slice changes only through a late event, which
 * drops its bytes ({@link #changed}); so a snapshot encodes only the slices it finds unencoded and
 * copies the rest — the job pauses for every snapshot, and encoding every slice each time was that
 * pause.
 */
final class SealedSlices {
    private static final long NONE = Long.MIN_VALUE;

    private final long size;
    private final long lateness;
    private final Long2ObjectHashMap<byte[]> bytesByStart = new Long2ObjectHashMap<>();
    /** Slices starting below this may have bytes; {@link #NONE}: none has. */
    private long sealedBelow = NONE;
    /**
     * The watermark at the previous snapshot — or, before the first, the first the engine had since
     * it was created or restored (a job's first snapshot comes one interval after its start): how
     * far event time moves between two snapshots.
     */
    private long previousSnapshotWatermark = NONE;
    /**
     * A slice starting after this is encoded as soon as the window moves over it (it is sealed then),
     * while its accumulators are still in cache from being combined: the slices expected to be alive
     * at the next snapshot, judged by how far event time moved between the last two. When a job
     * replays a backlog, event time outruns the window between two snapshots and every slice a
     * snapshot holds is new; encoding them there, one cache miss per accumulator, was most of the
     * snapshot's pause. {@code Long.MAX_VALUE} until the engine's first snapshot, and without snapshots.
     */
    private long encodeAfter = Long.MAX_VALUE;
    private SnapshotOutput encoder;

    SealedSlices(final long size, final long lateness) {
        this.size = size;
        this.lateness = lateness;
    }

    /** The engine's watermark moved to {@code watermark}. */
    void onWatermark(final long watermark) {
        if (previousSnapshotWatermark == NONE) {
            previousSnapshotWatermark = watermark;
        }
    }

    /** A late event changed the slice starting at {@code start}: it is encoded again when next needed. */
    void changed(final long start) {
        if (start < sealedBelow) {
            bytesByStart.remove(start);
        }
    }

    /** Whether the slice starting at {@code start} is to be encoded as the window moves over it ({@link #encode}). */
    boolean encodesWhenSealed(final long start) {
        return start > encodeAfter;
    }

    /** Keeps the encoding of the sealed slice starting at {@code start}, whose entries {@code codec} holds. */
    void encode(final long start, final SliceCodec<?> codec) {
        if (encoder == null) {
            encoder = new SnapshotOutput();
        }
        encoder.reset();
        try {
            codec.writeTo(encoder);
        } catch (final IOException e) {
            throw new UncheckedIOException("bug: encoding into memory failed", e);
        }
        keep(start, encoder.copy(0, encoder.length()));
    }

    /** The slice starting at {@code start} is gone. */
    void dropped(final long start) {
        bytesByStart.remove(start);
    }

    /**
     * A snapshot at {@code watermark} begins: returns the start above which a slice it writes, once
     * sealed, is worth keeping for the next one (those the next snapshot will still hold: when event
     * time moves faster than the window between two snapshots, a job catching up on a backlog, none
     * is, and keeping them would copy the whole state per snapshot for nothing). A snapshot to an
     * output that cannot be copied ({@code copyable} false) changes nothing.
     */
    long beginSnapshot(final long watermark, final boolean copyable) {
        final long keptFrom = previousSnapshotWatermark == NONE || watermark == NONE ? Long.MAX_VALUE
                : watermark + Math.max(0, watermark - previousSnapshotWatermark) - size - lateness;
        if (copyable) {
            previousSnapshotWatermark = watermark;
            encodeAfter = keptFrom;
        }
        return keptFrom;
    }

    /** The kept encoding of the slice starting at {@code start}, or null. */
    byte[] bytesOf(final long start) {
        return bytesByStart.get(start);
    }

    void keep(final long start, final byte[] encoding) {
        bytesByStart.put(start, encoding);
        sealedBelow = Math.max(sealedBelow, start + 1);
    }

    /** Forgets everything: the engine was restored at {@code watermark} ({@link #NONE} when the snapshot had none). */
    void reset(final long watermark) {
        bytesByStart.clear();
        sealedBelow = NONE;
        previousSnapshotWatermark = watermark;
        encodeAfter = Long.MAX_VALUE;
    }
}
