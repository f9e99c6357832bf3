package io.streamgrid.jobs.window;


import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * Longs in as few bytes as their size needs (7 bits a byte, the high bit saying "more"), for
 * {@link WindowAggregation#write}/{@link WindowAggregation#read} and other snapshot state: a count
 * below 128 takes one byte instead of eight. Snapshots are written at every checkpoint (and, with
 * {@code persistence.jobs}, to Cassandra), so their size is their cost. Into StreamGrid's own
 * snapshot output a value is encoded in place; into any other {@link DataOutput} through a small
 * array, in the same format.
 */
public final class VarLongs {
    private VarLongs() {
    }

    /** Writes {@code value} as unsigned: 1 byte below 2^7, 2 below 2^14, …; a negative value takes 10. */
    public static void writeUnsigned(final DataOutput out, final long value) throws IOException {
        if (out instanceof VarLongSink sink) {
            sink.writeVarLong(value);
            return;
        }
        final byte[] encoded = new byte[10];
        out.write(encoded, 0, VarLongSink.encode(encoded, 0, value));
    }

    /** Writes {@code value} zigzag-encoded, so that small negative values are short too. */
    public static void writeSigned(final DataOutput out, final long value) throws IOException {
        writeUnsigned(out, (value << 1) ^ (value >> 63));
    }

    /** Reads a value {@link #writeUnsigned} wrote. @throws IOException when the input ends or holds more than 10 bytes of it */
    public static long readUnsigned(final DataInput in) throws IOException {
        long value = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            final byte b = in.readByte();
            value |= (long) (b & 0x7F) << shift;
            if (b >= 0) {
                return value;
            }
        }
        throw new IOException("a variable-length long longer than 10 bytes: not written by VarLongs");
    }

    /** Reads a value {@link #writeSigned} wrote. */
    public static long readSigned(final DataInput in) throws IOException {
        final long zigzag = readUnsigned(in);
        return (zigzag >>> 1) ^ -(zigzag & 1);
    }
}
