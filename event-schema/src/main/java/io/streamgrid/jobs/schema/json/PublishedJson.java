package io.streamgrid.jobs.schema.json;

import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.Field;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The fast way of publishing: encodes a published event, UTF-8 JSON, straight from its
 * bytes into a schema record — no field map, no boxed values, no strings, which is what
 * {@link FlatJson} and {@link RecordEncoder} spend most of a publisher's time on
 * (perf/NOTES.md, 2026-12-05).
 *
 * <p>It takes only the plain form an application's {@code Event} builder writes: every field of the
 * schema once, strings of printable ASCII without escapes, whole numbers of up to 18 digits (any
 * number for a double field). Anything else it declines ({@link #encode} returns null) and the
 * event goes the full way, so that errors and unusual forms have one implementation: an event this
 * class encodes is encoded byte for byte as the full way would, and one the full way rejects is
 * always declined here (PublishedJsonTest). Not thread-safe: one per log appender or publisher.
 */
public final class PublishedJson {
    private static final int MAX_WHOLE_DIGITS = 18;
    private static final byte[] TRUE = ascii("true");
    private static final byte[] FALSE = ascii("false");

    private final SchemaLayout layout;
    /** Per field, its name in ASCII (null when it is not ASCII: never matched, the full way handles it). */
    private final byte[][] names;
    /** Per enum field, its symbols in ASCII (null entries as for names); null for other fields. */
    private final byte[][][] symbols;
    private final boolean[] present;
    private final UnsafeBuffer buffer;
    private final SchemaRecord record;
    /** The end of the last number or string read: a second result beside the value the reader returns. */
    private int end;

    public PublishedJson(final EventSchema schema) {
        this.layout = schema.layout();
        final int fields = layout.fieldCount();
        this.names = new byte[fields][];
        this.symbols = new byte[fields][][];
        for (int i = 0; i < fields; i++) {
            final Field field = layout.field(i);
            names[i] = ascii(field.name());
            if (!field.symbols().isEmpty()) {
                symbols[i] = field.symbols().stream().map(PublishedJson::ascii).toArray(byte[][]::new);
            }
        }
        this.present = new boolean[fields];
        this.buffer = new UnsafeBuffer(new byte[layout.length()]);
        this.record = new SchemaRecord(layout);
    }

    /**
     * The event in {@code json[from, to)} as a {@link SchemaLayout#KIND_PUBLISHED} record numbered
     * {@code sequence} (valid until the next call), or null when it is not in the plain form.
     */
    public SchemaRecord encode(final byte[] json, final int from, final int to, final long sequence) {
        Arrays.fill(present, false);
        record.wrapForWrite(buffer, 0);
        int pos = skipSpace(json, from, to);
        if (pos >= to || json[pos] != '{') {
            return null;
        }
        pos = skipSpace(json, pos + 1, to);
        int fields = 0;
        if (pos < to && json[pos] == '}') {
            pos++;
        } else {
            while (true) {
                if (plainString(json, pos, to) < 0) {
                    return null;
                }
                final int field = fieldNamed(json, pos + 1, end);
                if (field < 0 || present[field]) {
                    return null; // unknown (or seq), or a second time: the full way names it
                }
                present[field] = true;
                fields++;
                pos = skipSpace(json, end + 1, to);
                if (pos >= to || json[pos] != ':') {
                    return null;
                }
                pos = value(field, json, skipSpace(json, pos + 1, to), to);
                if (pos < 0) {
                    return null;
                }
                pos = skipSpace(json, pos, to);
                if (pos >= to) {
                    return null;
                }
                final byte separator = json[pos++];
                if (separator == '}') {
                    break;
                }
                if (separator != ',') {
                    return null;
                }
                pos = skipSpace(json, pos, to);
            }
        }
        if (skipSpace(json, pos, to) != to || fields != layout.fieldCount()) {
            return null; // text after the object, or a field left out (its default: the full way)
        }
        record.sequence(sequence);
        buffer.putByte(0, SchemaLayout.KIND_PUBLISHED);
        return record;
    }

    /** Reads the value of {@code field} at {@code pos} into the record; the position after it, or -1 to decline. */
    private int value(final int field, final byte[] json, final int pos, final int to) {
        switch (layout.field(field).type()) {
            case INT -> {
                final long whole = whole(json, pos, to);
                if (end < 0 || whole < Integer.MIN_VALUE || whole > Integer.MAX_VALUE) {
                    return -1;
                }
                record.setInt(field, (int) whole);
                return end;
            }
            case LONG -> {
                final long whole = whole(json, pos, to);
                if (end < 0) {
                    return -1;
                }
                record.setLong(field, whole);
                return end;
            }
            case TIMESTAMP -> {
                final long whole = whole(json, pos, to);
                if (end < 0 || whole < 0) {
                    return -1;
                }
                record.setTimestamp(field, whole);
                return end;
            }
            case DOUBLE -> {
                final double number = number(json, pos, to);
                if (end < 0 || !Double.isFinite(number)) {
                    return -1;
                }
                record.setDouble(field, number);
                return end;
            }
            case BOOLEAN -> {
                if (startsWith(json, pos, to, TRUE)) {
                    record.setBoolean(field, true);
                    return pos + TRUE.length;
                }
                if (startsWith(json, pos, to, FALSE)) {
                    record.setBoolean(field, false);
                    return pos + FALSE.length;
                }
                return -1;
            }
            case ENUM -> {
                if (plainString(json, pos, to) < 0) {
                    return -1;
                }
                final byte[][] known = symbols[field];
                for (int ordinal = 0; ordinal < known.length; ordinal++) {
                    if (known[ordinal] != null && Arrays.equals(json, pos + 1, end, known[ordinal], 0, known[ordinal].length)) {
                        record.setEnumOrdinal(field, ordinal);
                        return end + 1;
                    }
                }
                return -1;
            }
            case STRING -> {
                if (plainString(json, pos, to) < 0 || end - pos - 1 > layout.field(field).maxLength()) {
                    return -1;
                }
                record.setStringUtf8(field, json, pos + 1, end - pos - 1);
                return end + 1;
            }
            default -> {
                return -1;
            }
        }
    }

    /**
     * A whole number at {@code pos} as {@link FlatJson} reads one (an optional sign, then digits, up
     * to the first character that cannot be in a number); {@link #end} after it, or -1 when it is
     * not one of at most 18 digits.
     */
    private long whole(final byte[] json, final int pos, final int to) {
        final int tokenEnd = numberEnd(json, pos, to);
        int at = pos;
        final boolean negative = at < tokenEnd && json[at] == '-';
        if (at < tokenEnd && (json[at] == '-' || json[at] == '+')) {
            at++;
        }
        final int digits = tokenEnd - at;
        if (digits < 1 || digits > MAX_WHOLE_DIGITS) {
            end = -1;
            return 0;
        }
        long value = 0;
        for (; at < tokenEnd; at++) {
            final int digit = json[at] - '0';
            if (digit < 0 || digit > 9) {
                end = -1;
                return 0;
            }
            value = value * 10 + digit;
        }
        end = tokenEnd;
        return negative ? -value : value;
    }

    /** Any number at {@code pos}, as {@link FlatJson} then {@link RecordEncoder} read it for a double field; {@link #end} as {@link #whole}. */
    private double number(final byte[] json, final int pos, final int to) {
        final long whole = whole(json, pos, to);
        if (end >= 0) {
            return whole;
        }
        final int tokenEnd = numberEnd(json, pos, to);
        if (tokenEnd == pos) {
            end = -1;
            return Double.NaN;
        }
        final String token = new String(json, pos, tokenEnd - pos, StandardCharsets.US_ASCII);
        if (token.indexOf('.') < 0 && token.indexOf('e') < 0 && token.indexOf('E') < 0) {
            end = -1; // a whole number the full way reads as a long, or fails to: it decides
            return Double.NaN;
        }
        try {
            final double number = Double.parseDouble(token);
            end = tokenEnd;
            return number;
        } catch (final NumberFormatException e) {
            end = -1;
            return Double.NaN;
        }
    }

    private static int numberEnd(final byte[] json, final int pos, final int to) {
        int at = pos;
        while (at < to && isNumberChar(json[at])) {
            at++;
        }
        return at;
    }

    private static boolean isNumberChar(final byte c) {
        return c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E';
    }

    /**
     * A string of printable ASCII without escapes at {@code pos} (its opening quote): sets
     * {@link #end} to its closing quote and returns it, or -1 when the string is not plain.
     */
    private int plainString(final byte[] json, final int pos, final int to) {
        if (pos >= to || json[pos] != '"') {
            return end = -1;
        }
        for (int at = pos + 1; at < to; at++) {
            final byte c = json[at];
            if (c == '"') {
                return end = at;
            }
            if (c == '\\' || c < 0x20 || c > 0x7e) {
                return end = -1; // an escape or non-ASCII (negative as a byte): the full way decodes it
            }
        }
        return end = -1;
    }

    private int fieldNamed(final byte[] json, final int from, final int to) {
        for (int i = 0; i < names.length; i++) {
            if (names[i] != null && Arrays.equals(json, from, to, names[i], 0, names[i].length)) {
                return i;
            }
        }
        return -1;
    }

    /** Skips the whitespace this form allows (space, tab, line breaks); anything else stops it. */
    private static int skipSpace(final byte[] json, final int from, final int to) {
        int at = from;
        while (at < to && (json[at] == ' ' || json[at] == '\t' || json[at] == '\n' || json[at] == '\r')) {
            at++;
        }
        return at;
    }

    private static boolean startsWith(final byte[] json, final int pos, final int to, final byte[] literal) {
        return to - pos >= literal.length && Arrays.equals(json, pos, pos + literal.length, literal, 0, literal.length);
    }

    /** {@code text} in ASCII, or null when it has other characters. */
    private static byte[] ascii(final String text) {
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) < 0x20 || text.charAt(i) > 0x7e) {
                return null;
            }
        }
        return text.getBytes(StandardCharsets.US_ASCII);
    }
}
