package io.streamgrid.nexmark;

/**
 * A result row's 64-bit hash, from its fields in order: what every engine folds into its
 * {@link ResultFingerprint} instead of the row itself. Hashing the fields directly (no text built,
 * nothing allocated) keeps the check's own cost per row to a few nanoseconds, so a pass-through
 * query measures the engine, not the check.
 */
public final class RowHash {
    private static final long SEED = 0x243F_6A88_85A3_08D3L;

    private RowHash() {
    }

    public static long of(final long a, final long b) {
        return step(step(SEED, a), b);
    }

    public static long of(final long a, final long b, final long c) {
        return step(of(a, b), c);
    }

    public static long of(final long a, final long b, final long c, final long d) {
        return step(of(a, b, c), d);
    }

    public static long of(final long a, final long b, final long c, final long d, final long e) {
        return step(of(a, b, c, d), e);
    }

    /** A string field's contribution: its characters hashed, its length included (so "ab","c" differs from "a","bc"). */
    public static long text(final String value) {
        long h = value.length();
        for (int i = 0; i < value.length(); i++) {
            h = h * 0x100_0000_01B3L + value.charAt(i);
        }
        return NexmarkGenerator.mix(h);
    }

    private static long step(final long hash, final long field) {
        return NexmarkGenerator.mix(hash ^ (field * 0x9E37_79B9_7F4A_7C15L)) + 0x632B_E59B_D9B4_E019L;
    }
}
