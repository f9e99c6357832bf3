package io.streamgrid.nexmark;

import java.nio.charset.StandardCharsets;

/**
 * What a query computed, as a fingerprint that does not depend on the order results arrive in:
 * the number of result rows and two independent sums of 64-bit hashes of each row's canonical
 * text. Two engines computing the same rows (as a multiset: a row twice counts twice) have equal
 * fingerprints; a missing, extra, duplicated or different row changes the count or both sums but
 * for a 2<sup>-128</sup> chance. Fingerprints of parts (an engine's parallel sinks) add up with
 * {@link #plus}.
 *
 * @param rows how many rows
 */
public record ResultFingerprint(long rows, long sumA, long sumB) {
    public static final ResultFingerprint EMPTY = new ResultFingerprint(0, 0, 0);

    /** The fingerprint of one row, given as its canonical text (see {@link NexmarkQuery#row}). */
    public static ResultFingerprint of(final String row) {
        final byte[] bytes = row.getBytes(StandardCharsets.UTF_8);
        long a = 0xCBF2_9CE4_8422_2325L;
        long b = 0x84222325CBF29CE4L;
        for (final byte value : bytes) {
            a = (a ^ (value & 0xFF)) * 0x0000_0100_0000_01B3L;
            b = (b + (value & 0xFF)) * 0x9E37_79B9_7F4A_7C15L;
            b ^= b >>> 29;
        }
        return new ResultFingerprint(1, NexmarkGenerator.mix(a), NexmarkGenerator.mix(b ^ bytes.length));
    }

    public ResultFingerprint plus(final ResultFingerprint other) {
        return new ResultFingerprint(rows + other.rows, sumA + other.sumA, sumB + other.sumB);
    }

    /** A short form for reports: rows and the two sums in hex. */
    @Override
    public String toString() {
        return rows + " rows, " + Long.toHexString(sumA) + "/" + Long.toHexString(sumB);
    }
}
