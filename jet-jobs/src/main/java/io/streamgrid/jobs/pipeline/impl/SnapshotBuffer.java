package io.streamgrid.jobs.pipeline.impl;

import java.io.OutputStream;
import java.util.Arrays;

/**
 * The bytes of one partition's snapshot while they are written: a growable array without the
 * per-call lock of {@link java.io.ByteArrayOutputStream} (a snapshot of a large window state is
 * millions of small writes), kept between snapshots so it grows to the state's size once.
 * Single-threaded.
 */
final class SnapshotBuffer extends OutputStream {
    private byte[] bytes = new byte[4096];
    private int size;

    /** Starts a new snapshot, keeping the capacity. */
    void reset() {
        size = 0;
    }

    @Override
    public void write(final int b) {
        ensureCapacity(size + 1);
        bytes[size++] = (byte) b;
    }

    @Override
    public void write(final byte[] source, final int offset, final int length) {
        ensureCapacity(size + length);
        System.arraycopy(source, offset, bytes, size, length);
        size += length;
    }

    /** A copy of what was written: the snapshot owns it, this buffer is reused. */
    byte[] toByteArray() {
        return Arrays.copyOf(bytes, size);
    }

    private void ensureCapacity(final int needed) {
        if (needed < 0) {
            throw new IllegalStateException("snapshot of one partition over 2 GiB: split the ingest log into more partitions");
        }
        if (needed > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(needed, (int) Math.min(Integer.MAX_VALUE - 8, bytes.length * 2L)));
        }
    }
}
