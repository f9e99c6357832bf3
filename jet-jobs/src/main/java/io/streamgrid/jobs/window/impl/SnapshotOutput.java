package io.streamgrid.jobs.window.impl;

import io.streamgrid.jobs.window.VarLongSink;
import org.agrona.ExpandableArrayBuffer;

import java.io.ByteArrayOutputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;

/**
 * Where one partition's snapshot is written (and a window engine's slice encoded ahead of one): a
 * {@link DataOutput} writing straight into a reusable Agrona buffer, in {@link DataOutputStream}'s
 * format (big-endian, modified UTF-8), so that {@link java.io.DataInputStream} reads it back. Why
 * not a DataOutputStream over a byte stream: a large window state is millions of small writes, and
 * each would pass through a stream call and a lock; here a {@code writeLong} is one bounds check and
 * one store. Single-threaded; the buffer keeps its capacity between snapshots.
 */
public final class SnapshotOutput implements DataOutput, VarLongSink, CopyableOutput {
    private final ExpandableArrayBuffer buffer = new ExpandableArrayBuffer(4096);
    private int position;

    /** Starts a new snapshot, keeping the capacity. */
    public void reset() {
        position = 0;
    }

    /** Bytes written since {@link #reset()}. */
    @Override
    public int length() {
        return position;
    }

    /**
     * A copy of the bytes written from {@code from} (inclusive) to {@code to} (exclusive): the
     * snapshot owns it, this buffer is reused.
     */
    @Override
    public byte[] copy(final int from, final int to) {
        if (from < 0 || to > position || from > to) {
            throw new IndexOutOfBoundsException("bytes " + from + ".." + to + " of " + position + " written");
        }
        return copy(from, new byte[to - from]);
    }

    /** Fills {@code into} with the bytes written from {@code from} on; returns it. */
    public byte[] copy(final int from, final byte[] into) {
        return copy(from, into, 0, into.length);
    }

    /** Copies {@code length} bytes written from {@code from} on into {@code into} at {@code at}; returns it. */
    public byte[] copy(final int from, final byte[] into, final int at, final int length) {
        if (from < 0 || length < 0 || from + length > position) {
            throw new IndexOutOfBoundsException("bytes " + from + ".." + (from + length) + " of " + position + " written");
        }
        buffer.getBytes(from, into, at, length);
        return into;
    }

    @Override
    public void write(final int b) {
        buffer.putByte(position, (byte) b);
        position += 1;
    }

    @Override
    public void write(final byte[] bytes) {
        write(bytes, 0, bytes.length);
    }

    @Override
    public void write(final byte[] bytes, final int offset, final int length) {
        buffer.putBytes(position, bytes, offset, length);
        position += length;
    }

    @Override
    public void writeVarLong(final long value) {
        buffer.checkLimit(position + 10);
        position = VarLongSink.encode(buffer.byteArray(), position, value);
    }

    @Override
    public void writeBoolean(final boolean value) {
        write(value ? 1 : 0);
    }

    @Override
    public void writeByte(final int value) {
        write(value);
    }

    @Override
    public void writeShort(final int value) {
        buffer.putShort(position, (short) value, ByteOrder.BIG_ENDIAN);
        position += Short.BYTES;
    }

    @Override
    public void writeChar(final int value) {
        buffer.putChar(position, (char) value, ByteOrder.BIG_ENDIAN);
        position += Character.BYTES;
    }

    @Override
    public void writeInt(final int value) {
        buffer.putInt(position, value, ByteOrder.BIG_ENDIAN);
        position += Integer.BYTES;
    }

    @Override
    public void writeLong(final long value) {
        buffer.putLong(position, value, ByteOrder.BIG_ENDIAN);
        position += Long.BYTES;
    }

    @Override
    public void writeFloat(final float value) {
        writeInt(Float.floatToIntBits(value));
    }

    @Override
    public void writeDouble(final double value) {
        writeLong(Double.doubleToLongBits(value));
    }

    @Override
    public void writeBytes(final String value) {
        for (int i = 0; i < value.length(); i++) {
            write(value.charAt(i));
        }
    }

    @Override
    public void writeChars(final String value) {
        for (int i = 0; i < value.length(); i++) {
            writeChar(value.charAt(i));
        }
    }

    @Override
    public void writeUTF(final String value) {
        // Rare (names, not window state): DataOutputStream's own encoding, so the format is exactly its.
        final ByteArrayOutputStream encoded = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(encoded)) {
            out.writeUTF(value);
        } catch (final IOException e) {
            throw new UncheckedIOException("bug: writing to memory failed", e);
        }
        write(encoded.toByteArray());
    }
}
