package io.streamgrid.examples.paramserver;

import java.nio.ByteBuffer;
import java.util.Base64;

/**
 * A shard's gradient as text, for an update event's string field: (slot, value) pairs — the slot as
 * two bytes, the value as the eight bytes of its double, exactly — in URL-safe Base64 without
 * padding, so the server applies the very doubles the worker summed.
 */
final class SparseGradient {
    /**
     * Pairs per update event: 10 bytes each, 4 characters per 3 bytes. A log's records have the
     * length of their schema's longest strings, so this is what every update costs in the log; a
     * shard's gradient with more entries goes out as several updates.
     */
    static final int MAX_ENTRIES = 30;
    /** The text of {@link #MAX_ENTRIES} pairs. */
    static final int MAX_CHARACTERS = (MAX_ENTRIES * 10 * 4 + 2) / 3;
    private static final int ENTRY_BYTES = Short.BYTES + Double.BYTES;
    private static final Base64.Encoder ENCODER = Base64.getUrlEncoder().withoutPadding();
    private static final Base64.Decoder DECODER = Base64.getUrlDecoder();

    private SparseGradient() {
    }

    /** The {@code count} pairs of {@code slots} and {@code values} from {@code from} as text. */
    static String encode(final int[] slots, final double[] values, final int from, final int count) {
        if (count > MAX_ENTRIES) {
            throw new IllegalArgumentException(count + " gradient entries; at most " + MAX_ENTRIES + " fit an update");
        }
        final ByteBuffer bytes = ByteBuffer.allocate(count * ENTRY_BYTES);
        for (int i = from; i < from + count; i++) {
            bytes.putShort((short) slots[i]).putDouble(values[i]);
        }
        return ENCODER.encodeToString(bytes.array());
    }

    /** Calls {@code to} with each pair of {@code text}. @throws IllegalArgumentException when it is not such a text */
    static void decode(final String text, final EntryConsumer to) {
        final ByteBuffer bytes = ByteBuffer.wrap(DECODER.decode(text));
        if (bytes.remaining() % ENTRY_BYTES != 0) {
            throw new IllegalArgumentException("a gradient of " + bytes.remaining() + " bytes is not (slot, value) pairs of "
                    + ENTRY_BYTES + " bytes");
        }
        while (bytes.hasRemaining()) {
            to.accept(bytes.getShort() & 0xFFFF, bytes.getDouble());
        }
    }

    interface EntryConsumer {
        void accept(int slot, double value);
    }
}
