package io.streamgrid.sink.impl;

import io.streamgrid.sink.TableSpec;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.util.List;

/**
 * Writes of a transaction in the snapshot: a compact tagged binary form, no Java serialization,
 * cut into parts of a bounded size — each its own snapshot entry, each with the whole header and a
 * run of whole rows, so that no entry outgrows what a durable snapshot can store in one Cassandra
 * row ({@link io.streamgrid.sink.SnapshotEntries}). Starts with a format number so that a snapshot
 * of another layout is refused, not misread.
 */
final class RowCodec {
    /** 5: a transaction in parts; 3 had a tag per value. */
    private static final int FORMAT = 5;
    /**
     * 4: the whole transaction in one entry, its rows as {@link EpochWrites} records — read as a
     * transaction of one part, so that a job whose snapshot the previous build wrote (kept in
     * Cassandra with {@code persistence.jobs}) resumes after an upgrade.
     */
    private static final int WHOLE_FORMAT = 4;

    private RowCodec() {
    }

    /**
     * The transaction's snapshot form: parts of at most {@code maxPartBytes} bytes (a single row
     * larger than that gets a part of its own), each the header, its index and the number of parts,
     * then its rows' bytes. At least one part, so that an empty transaction still carries its epoch.
     */
    static List<byte[]> encode(final Txn txn, final int maxPartBytes) {
        final byte[] header = header(txn);
        final List<byte[]> parts = txn.rows().liveBytesInParts(header.length, maxPartBytes);
        for (int index = 0; index < parts.size(); index++) {
            final UnsafeBuffer part = new UnsafeBuffer(parts.get(index));
            part.putBytes(0, header);
            // Big-endian, as the DataOutputStream that wrote the header and the reader expect.
            part.putInt(header.length - 2 * Integer.BYTES, index, ByteOrder.BIG_ENDIAN);
            part.putInt(header.length - Integer.BYTES, parts.size(), ByteOrder.BIG_ENDIAN);
        }
        return parts;
    }

    /** A part's header, its last two ints (the part's index and the number of parts) left 0 to fill in. */
    private static byte[] header(final Txn txn) {
        final ByteArrayOutputStream header = new ByteArrayOutputStream(64);
        try (DataOutputStream out = new DataOutputStream(header)) {
            out.writeInt(FORMAT);
            out.writeUTF(txn.id());
            out.writeInt(txn.processorIndex());
            out.writeLong(txn.epoch());
            out.writeLong(txn.timestampMicros());
            out.writeInt(0);
            out.writeInt(0);
        } catch (final IOException e) {
            throw new UncheckedIOException("bug: writing to memory failed", e);
        }
        return header.toByteArray();
    }

    /**
     * The header of one part from {@link #encode} (or of a whole transaction of format 4, as its only
     * part); its rows are the bytes from {@link Part#rowsFrom()}.
     *
     * @throws IllegalStateException  if the part has another format
     * @throws UncheckedIOException   if it is cut short
     */
    static Part decode(final byte[] data) {
        final ByteArrayInputStream bytes = new ByteArrayInputStream(data);
        try (DataInputStream in = new DataInputStream(bytes)) {
            final int format = in.readInt();
            if (format != FORMAT && format != WHOLE_FORMAT) {
                throw new IllegalStateException("a transaction in the snapshot has format " + format + ", this build reads "
                        + WHOLE_FORMAT + " and " + FORMAT + ": resume the job with the build that wrote it");
            }
            final String txnId = in.readUTF();
            final int processorIndex = in.readInt();
            final long epoch = in.readLong();
            final long timestampMicros = in.readLong();
            if (format == FORMAT) {
                return new Part(txnId, processorIndex, epoch, timestampMicros, in.readInt(), in.readInt(),
                        data.length - bytes.available());
            }
            final int rowsLength = in.readInt();
            if (rowsLength != bytes.available()) {
                throw new IOException(rowsLength + " bytes of rows announced, " + bytes.available() + " present");
            }
            return new Part(txnId, processorIndex, epoch, timestampMicros, 0, 1, data.length - rowsLength);
        } catch (final IOException e) {
            throw new UncheckedIOException("corrupt transaction in snapshot", e);
        }
    }

    /** A prepared transaction: deterministic id, owner, epoch, the timestamp of its writes, and the writes. */
    record Txn(String id, int processorIndex, long epoch, long timestampMicros, EpochWrites rows) {
    }

    /** The header of part {@code index} of the {@code count} parts of a transaction; its rows from {@code rowsFrom}. */
    record Part(String txnId, int processorIndex, long epoch, long timestampMicros, int index, int count, int rowsFrom) {
    }

    /**
     * A transaction put together from its parts as a restore hands them over, in any order.
     * Not thread-safe.
     */
    static final class Restoring {
        private final Txn txn;
        private final boolean[] seen;
        private int missing;

        /** The transaction {@code first} is a part of, with none of its rows yet. */
        Restoring(final Part first, final TableSpec table) {
            txn = new Txn(first.txnId(), first.processorIndex(), first.epoch(), first.timestampMicros(), EpochWrites.restoring(table));
            seen = new boolean[first.count()];
            missing = first.count();
        }

        /**
         * Adds the rows of {@code part}, whose bytes are {@code data}.
         *
         * @throws IllegalStateException if the part came before, or its header disagrees with the
         *                               transaction's (entries of two snapshots mixed)
         */
        void add(final Part part, final byte[] data) {
            if (part.count() != seen.length || part.epoch() != txn.epoch() || part.timestampMicros() != txn.timestampMicros()
                    || part.index() < 0 || part.index() >= seen.length) {
                throw new IllegalStateException("transaction " + txn.id() + " has a part " + part + " that does not belong with "
                        + txn + " in " + seen.length + " parts");
            }
            if (seen[part.index()]) {
                throw new IllegalStateException("transaction " + txn.id() + " has part " + part.index() + " twice in the snapshot");
            }
            seen[part.index()] = true;
            missing--;
            txn.rows().appendRestored(data, part.rowsFrom(), data.length - part.rowsFrom());
        }

        /**
         * The whole transaction.
         *
         * @throws IllegalStateException if parts are missing: its rows must never be committed short
         */
        Txn whole() {
            if (missing > 0) {
                throw new IllegalStateException("transaction " + txn.id() + " is in the snapshot with " + (seen.length - missing)
                        + " of its " + seen.length + " parts: the snapshot is incomplete, none of its rows are committed");
            }
            return txn;
        }
    }
}
