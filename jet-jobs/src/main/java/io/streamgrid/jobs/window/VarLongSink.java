package io.streamgrid.jobs.window;

/**
 * An output that encodes a {@link io.streamgrid.jobs.window.VarLongs} value in one call (one
 * capacity check, then plain array stores) instead of a call per byte.
 */
public interface VarLongSink {
    /** Writes {@code value} in {@code VarLongs.writeUnsigned}'s format. */
    void writeVarLong(long value);

    /**
     * The format itself, in one place: writes {@code value} 7 bits a byte, low bits first, the high
     * bit set on every byte but the last, into {@code into} from {@code at} (which must have room for
     * 10 bytes); returns the position after it.
     */
    static int encode(final byte[] into, final int at, final long value) {
        int to = at;
        long rest = value;
        while ((rest & ~0x7FL) != 0) {
            into[to++] = (byte) ((rest & 0x7F) | 0x80);
            rest >>>= 7;
        }
        into[to++] = (byte) rest;
        return to;
    }
}
