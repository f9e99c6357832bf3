package io.streamgrid.nexmark;

/**
 * What a query computed, as a fingerprint that does not depend on the order results arrive in:
 * the number of result rows and two sums of two functions of each row's 64-bit hash
 * ({@link RowHash}). Two engines computing the same rows (as a multiset: a row twice counts twice)
 * have equal fingerprints; a missing, extra, duplicated or different row changes the count or the
 * sums but for a chance of about 2<sup>-64</sup>. Fingerprints of parts (an engine's parallel sinks)
 * add up with {@link #plus}.
 *
 * @param rows how many rows
 */
public record ResultFingerprint(long rows, long sumA, long sumB) {
    public static final ResultFingerprint EMPTY = new ResultFingerprint(0, 0, 0);

    /** The fingerprint of one row, given as its hash ({@link RowHash}; {@link NexmarkQuery}'s row methods). */
    public static ResultFingerprint of(final long rowHash) {
        return new ResultFingerprint(1, a(rowHash), b(rowHash));
    }

    /** The first sum's term for a row hash. */
    public static long a(final long rowHash) {
        return NexmarkGenerator.mix(rowHash);
    }

    /** The second sum's term: an unrelated function of the same hash. */
    public static long b(final long rowHash) {
        return NexmarkGenerator.mix(rowHash ^ 0x5851_F42D_4C95_7F2DL) * 0x2545_F491_4F6C_DD1DL;
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
