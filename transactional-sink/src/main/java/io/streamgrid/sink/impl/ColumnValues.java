package io.streamgrid.sink.impl;

import org.agrona.BitUtil;
import org.agrona.DirectBuffer;
import org.agrona.MutableDirectBuffer;

/**
 * How one column value is laid out in an {@link EpochWrites} buffer: a tag byte, then the value
 * (text as Agrona's length-prefixed UTF-8). Equal values give equal bytes, so keys compare and
 * hash as bytes.
 */
final class ColumnValues {
    private static final byte NULL = 0;
    private static final byte TEXT = 1;
    private static final byte LONG = 2;
    private static final byte INT = 3;
    private static final byte DOUBLE = 4;
    private static final byte BOOLEAN = 5;

    private ColumnValues() {
    }

    /** Encodes a value at {@code at}; returns its length. */
    static int put(final MutableDirectBuffer bytes, final int at, final Object value) {
        if (value == null) {
            bytes.putByte(at, NULL);
            return 1;
        } else if (value instanceof String s) {
            bytes.putByte(at, TEXT);
            return 1 + bytes.putStringUtf8(at + 1, s);
        } else if (value instanceof Long l) {
            bytes.putByte(at, LONG);
            bytes.putLong(at + 1, l);
            return 1 + Long.BYTES;
        } else if (value instanceof Integer i) {
            bytes.putByte(at, INT);
            bytes.putInt(at + 1, i);
            return 1 + Integer.BYTES;
        } else if (value instanceof Double d) {
            bytes.putByte(at, DOUBLE);
            bytes.putLong(at + 1, Double.doubleToLongBits(d)); // canonical NaN: equal keys, equal bytes
            return 1 + Long.BYTES;
        } else if (value instanceof Boolean b) {
            bytes.putByte(at, BOOLEAN);
            bytes.putByte(at + 1, (byte) (b ? 1 : 0));
            return 2;
        }
        throw new IllegalArgumentException("bug: unchecked value type " + value.getClass());
    }

    /** The value encoded at {@code at}. */
    static Object get(final DirectBuffer bytes, final int at) {
        final byte tag = bytes.getByte(at);
        return switch (tag) {
            case NULL -> null;
            case TEXT -> bytes.getStringUtf8(at + 1);
            case LONG -> bytes.getLong(at + 1);
            case INT -> bytes.getInt(at + 1);
            case DOUBLE -> Double.longBitsToDouble(bytes.getLong(at + 1));
            case BOOLEAN -> bytes.getByte(at + 1) != 0;
            default -> throw new IllegalStateException("corrupt epoch writes: value tag " + tag + " at " + at);
        };
    }

    /** The length of the value encoded at {@code at}. */
    static int length(final DirectBuffer bytes, final int at) {
        return switch (bytes.getByte(at)) {
            case NULL -> 1;
            case TEXT -> 1 + BitUtil.SIZE_OF_INT + bytes.getInt(at + 1);
            case LONG, DOUBLE -> 1 + Long.BYTES;
            case INT -> 1 + Integer.BYTES;
            case BOOLEAN -> 2;
            default -> throw new IllegalStateException("corrupt epoch writes: value tag " + bytes.getByte(at) + " at " + at);
        };
    }
}
