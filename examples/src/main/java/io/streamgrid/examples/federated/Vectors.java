package io.streamgrid.examples.federated;

import java.nio.ByteBuffer;
import java.util.Base64;

/**
 * Dense vectors as text for an event's string field — of doubles (a model delta) or of 64-bit
 * integers (a masked update, a correction): each value's eight bytes, exactly, in URL-safe Base64.
 */
public final class Vectors {
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private Vectors() {
    }

    /** The characters of a vector of {@code dimensions}. */
    static int maxCharacters(final int dimensions) {
        return (dimensions * Double.BYTES * 4 + 2) / 3;
    }

    public static String encode(final double[] vector) {
        final ByteBuffer bytes = ByteBuffer.allocate(vector.length * Double.BYTES);
        for (final double value : vector) {
            bytes.putDouble(value);
        }
        return ENCODER.encodeToString(bytes.array());
    }

    public static String encode(final long[] vector) {
        final ByteBuffer bytes = ByteBuffer.allocate(vector.length * Long.BYTES);
        for (final long value : vector) {
            bytes.putLong(value);
        }
        return ENCODER.encodeToString(bytes.array());
    }

    /** @throws IllegalArgumentException when {@code text} is not a vector of {@code dimensions} doubles */
    public static double[] decode(final String text, final int dimensions) {
        final ByteBuffer buffer = bytes(text, dimensions);
        final double[] vector = new double[dimensions];
        for (int i = 0; i < dimensions; i++) {
            vector[i] = buffer.getDouble();
        }
        return vector;
    }

    /** @throws IllegalArgumentException when {@code text} is not a vector of {@code dimensions} integers */
    public static long[] decodeLongs(final String text, final int dimensions) {
        final ByteBuffer buffer = bytes(text, dimensions);
        final long[] vector = new long[dimensions];
        for (int i = 0; i < dimensions; i++) {
            vector[i] = buffer.getLong();
        }
        return vector;
    }

    private static ByteBuffer bytes(final String text, final int dimensions) {
        final byte[] bytes = DECODER.decode(text);
        if (bytes.length != dimensions * Long.BYTES) {
            throw new IllegalArgumentException("a vector of " + bytes.length + " bytes is not " + dimensions + " values of 8 bytes");
        }
        return ByteBuffer.wrap(bytes);
    }

    /** The Euclidean norm. */
    public static double norm(final double[] vector) {
        double sum = 0;
        for (final double value : vector) {
            sum += value * value;
        }
        return Math.sqrt(sum);
    }
}
