package io.streamgrid.jobs.schema;

import org.agrona.MutableDirectBuffer;

/** UTF-8 length and encoding of a CharSequence straight into a buffer: no byte[] per value. */
final class Utf8 {
    private Utf8() {
    }

    static int encodedLength(final CharSequence text) {
        int bytes = 0;
        for (int i = 0; i < text.length(); i++) {
            final char c = text.charAt(i);
            if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3; // a lone surrogate is written as U+FFFD, also 3 bytes
            }
        }
        return bytes;
    }

    /** Writes {@code text} at {@code index}; returns the byte count. */
    static int encode(final CharSequence text, final MutableDirectBuffer buffer, final int index) {
        int at = index;
        for (int i = 0; i < text.length(); i++) {
            final char c = text.charAt(i);
            if (c < 0x80) {
                buffer.putByte(at++, (byte) c);
            } else if (c < 0x800) {
                buffer.putByte(at++, (byte) (0xc0 | c >> 6));
                buffer.putByte(at++, (byte) (0x80 | c & 0x3f));
            } else if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                final int codePoint = Character.toCodePoint(c, text.charAt(++i));
                buffer.putByte(at++, (byte) (0xf0 | codePoint >> 18));
                buffer.putByte(at++, (byte) (0x80 | codePoint >> 12 & 0x3f));
                buffer.putByte(at++, (byte) (0x80 | codePoint >> 6 & 0x3f));
                buffer.putByte(at++, (byte) (0x80 | codePoint & 0x3f));
            } else {
                final char written = Character.isSurrogate(c) ? '\ufffd' : c;
                buffer.putByte(at++, (byte) (0xe0 | written >> 12));
                buffer.putByte(at++, (byte) (0x80 | written >> 6 & 0x3f));
                buffer.putByte(at++, (byte) (0x80 | written & 0x3f));
            }
        }
        return at - index;
    }
}
