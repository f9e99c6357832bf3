package io.streamgrid.jobs.window;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * A long in as few bytes as its magnitude needs, for snapshots of state made of many small numbers
 * (counts, keys, accumulators): zigzag (so small negative numbers are small too), then 7 bits per
 * byte, low bits first, the top bit saying another byte follows — 1 byte up to ±63, 5 bytes for a
 * 32-bit IPv4 key, 10 at most.
 *
 * <p>Why: a window's state is written whole at every snapshot, millions of accumulators per second
 * in a busy job; every byte saved is a byte Jet copies, stores and backs up less.
 */
public final class VarLong {
    private VarLong() {
    }

    public static void write(final DataOutput out, final long value) throws IOException {
        long bits = (value << 1) ^ (value >> 63);
        while ((bits & ~0x7FL) != 0) {
            out.write((int) ((bits & 0x7F) | 0x80));
            bits >>>= 7;
        }
        out.write((int) bits);
    }

    /**
     * @throws IOException when the input ends inside the number, or runs past the 10 bytes a long can take
     *                     (a corrupt or misread snapshot, never a silently wrong value)
     */
    public static long read(final DataInput in) throws IOException {
        long bits = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            final int b = in.readUnsignedByte();
            bits |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return (bits >>> 1) ^ -(bits & 1);
            }
        }
        throw new IOException("a variable-length long runs past 10 bytes: corrupt or misread data");
    }
}
