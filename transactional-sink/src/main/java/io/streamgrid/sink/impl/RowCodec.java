package io.streamgrid.sink.impl;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Writes of a transaction in the snapshot: a compact tagged binary form, no Java serialization.
 * Starts with a format number so that a snapshot of another layout is refused, not misread.
 */
final class RowCodec {
    /** 3: a transaction carries its write timestamp (decided at prepare, kept for every recommit). */
    private static final int FORMAT = 3;
    private static final byte NULL = 0;
    private static final byte TEXT = 1;
    private static final byte LONG = 2;
    private static final byte INT = 3;
    private static final byte DOUBLE = 4;
    private static final byte BOOLEAN = 5;

    private RowCodec() {
    }

    static byte[] encode(final Txn txn) {
        return encode(txn.id(), txn.processorIndex(), txn.epoch(), txn.timestampMicros(), txn.rows());
    }

    static byte[] encode(final String txnId, final int processorIndex, final long epoch, final long timestampMicros,
                         final Collection<RowWrite> rows) {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream(64 + rows.size() * 48);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeInt(FORMAT);
            out.writeUTF(txnId);
            out.writeInt(processorIndex);
            out.writeLong(epoch);
            out.writeLong(timestampMicros);
            out.writeInt(rows.size());
            for (final RowWrite row : rows) {
                out.writeBoolean(row.delete());
                out.writeShort(row.values().length);
                for (final Object value : row.values()) {
                    write(out, value);
                }
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("bug: writing to memory failed", e);
        }
        return bytes.toByteArray();
    }

    static Txn decode(final byte[] data) {
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
            final int count = in.readInt();
            final List<RowWrite> rows = new ArrayList<>(count);
            for (int r = 0; r < count; r++) {
                final boolean delete = in.readBoolean();
                final Object[] values = new Object[in.readShort()];
                for (int i = 0; i < values.length; i++) {
                    values[i] = read(in);
                }
                rows.add(new RowWrite(values, delete));
            }
            return new Txn(txnId, processorIndex, epoch, timestampMicros, rows);
        } catch (final IOException e) {
            throw new UncheckedIOException("corrupt transaction in snapshot", e);
        }
    }

    private static void write(final DataOutputStream out, final Object value) throws IOException {
        if (value == null) {
            out.writeByte(NULL);
        } else if (value instanceof String s) {
            out.writeByte(TEXT);
            out.writeUTF(s);
        } else if (value instanceof Long l) {
            out.writeByte(LONG);
            out.writeLong(l);
        } else if (value instanceof Integer i) {
            out.writeByte(INT);
            out.writeInt(i);
        } else if (value instanceof Double d) {
            out.writeByte(DOUBLE);
            out.writeDouble(d);
        } else if (value instanceof Boolean b) {
            out.writeByte(BOOLEAN);
            out.writeBoolean(b);
        } else {
            throw new IllegalArgumentException("bug: unchecked value type " + value.getClass());
        }
    }

    private static Object read(final DataInputStream in) throws IOException {
        final byte tag = in.readByte();
        return switch (tag) {
            case NULL -> null;
            case TEXT -> in.readUTF();
            case LONG -> in.readLong();
            case INT -> in.readInt();
            case DOUBLE -> in.readDouble();
            case BOOLEAN -> in.readBoolean();
            default -> throw new IOException("unknown value tag " + tag);
        };
    }

    /** A prepared transaction: deterministic id, owner, epoch, the timestamp of its writes, and the writes. */
    record Txn(String id, int processorIndex, long epoch, long timestampMicros, List<RowWrite> rows) {
    }
}
