package io.streamgrid.sink.impl;

import io.streamgrid.sink.TableSpec;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;

/**
 * Writes of a transaction in the snapshot: a compact tagged binary form, no Java serialization.
 * Starts with a format number so that a snapshot of another layout is refused, not misread.
 */
final class RowCodec {
    /** 4: the rows as {@link EpochWrites} records (3 had a tag per value of each row object). */
    private static final int FORMAT = 4;

    private RowCodec() {
    }

    /** The transaction's snapshot form: a header, then its rows' bytes copied once into the result. */
    static byte[] encode(final Txn txn) {
        final int rowsLength = txn.rows().liveLength();
        final ByteArrayOutputStream header = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(header)) {
            out.writeInt(FORMAT);
            out.writeUTF(txn.id());
            out.writeInt(txn.processorIndex());
            out.writeLong(txn.epoch());
            out.writeLong(txn.timestampMicros());
            out.writeInt(rowsLength);
        } catch (final IOException e) {
            throw new UncheckedIOException("bug: writing to memory failed", e);
        }
        final byte[] encoded = Arrays.copyOf(header.toByteArray(), header.size() + rowsLength);
        txn.rows().copyLiveBytes(encoded, header.size());
        return encoded;
    }

    /** A transaction from {@link #encode}, its rows those of {@code table}. */
    static Txn decode(final byte[] data, final TableSpec table) {
        final ByteArrayInputStream bytes = new ByteArrayInputStream(data);
        try (DataInputStream in = new DataInputStream(bytes)) {
            final int format = in.readInt();
            if (format != FORMAT) {
                throw new IllegalStateException("a transaction in the snapshot has format " + format + ", this build reads "
                        + FORMAT + ": resume the job with the build that wrote it");
            }
            final String txnId = in.readUTF();
            final int processorIndex = in.readInt();
            final long epoch = in.readLong();
            final long timestampMicros = in.readLong();
            final int rowsLength = in.readInt();
            if (rowsLength != bytes.available()) {
                throw new IOException(rowsLength + " bytes of rows announced, " + bytes.available() + " present");
            }
            return new Txn(txnId, processorIndex, epoch, timestampMicros,
                    EpochWrites.copyOf(table, data, data.length - rowsLength, rowsLength));
        } catch (final IOException e) {
            throw new UncheckedIOException("corrupt transaction in snapshot", e);
        }
    }

    /** A prepared transaction: deterministic id, owner, epoch, the timestamp of its writes, and the writes. */
    record Txn(String id, int processorIndex, long epoch, long timestampMicros, EpochWrites rows) {
    }
}
