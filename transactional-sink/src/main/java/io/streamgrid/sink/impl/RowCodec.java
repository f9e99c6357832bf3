package io.streamgrid.sink.impl;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Writes of a transaction in the snapshot: a compact tagged binary form, no Java serialization.
 * Starts with a format number so that a snapshot of another layout is refused, not misread.
 */
final class RowCodec {
    /** 4: the rows as {@link EpochWrites} records (3 had a tag per value of each row object). */
    private static final int FORMAT = 4;

    private RowCodec() {
    }

    static byte[] encode(final Txn txn) {
        final byte[] rows = txn.rows().liveBytes();
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + rows.length);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(FORMAT);
            out.writeUTF(txn.id());
            out.writeInt(txn.processorIndex());
            out.writeLong(txn.epoch());
            out.writeLong(txn.timestampMicros());
            out.writeInt(rows.length);
            out.write(rows);
        } catch (final IOException e) {
            throw new UncheckedIOException("bug: writing to memory failed", e);
        }
        return bytes.toByteArray();
    }

    /** A transaction from {@link #encode}, its rows laid out for a table with these key positions and columns. */
    static Txn decode(final byte[] data, final int[] keyPositions, final int partitionKeyLength, final int columnCount) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(data))) {
            final int format = in.readInt();
            if (format != FORMAT) {
                throw new IllegalStateException("a transaction in the snapshot has format " + format + ", this build reads "
                        + FORMAT + ": resume the job with the build that wrote it");
            }
            final String txnId = in.readUTF();
            final int processorIndex = in.readInt();
            final long epoch = in.readLong();
            final long timestampMicros = in.readLong();
            final byte[] rows = new byte[in.readInt()];
            in.readFully(rows);
            return new Txn(txnId, processorIndex, epoch, timestampMicros,
                    EpochWrites.copyOf(keyPositions, partitionKeyLength, columnCount, rows));
        } catch (final IOException e) {
            throw new UncheckedIOException("corrupt transaction in snapshot", e);
        }
    }

    /** A prepared transaction: deterministic id, owner, epoch, the timestamp of its writes, and the writes. */
    record Txn(String id, int processorIndex, long epoch, long timestampMicros, EpochWrites rows) {
    }
}
