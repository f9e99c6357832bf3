package io.streamgrid.jobs.ingest;

import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * The rate and time left of long work, for its progress lines: "30 %, 512,000/s, about 2 s left".
 * The rate is over the whole run so far; the time left assumes it holds.
 */
public final class Progress {
    private final LongSupplier nanoClock;
    private final long startNanos;

    public Progress() {
        this(System::nanoTime);
    }

    /** With a clock of its own (tests). */
    Progress(final LongSupplier nanoClock) {
        this.nanoClock = nanoClock;
        this.startNanos = nanoClock.getAsLong();
    }

    /**
     * {@code count} items done so far (for the rate); {@code done} of {@code total} units of the
     * work (for the share and the time left — items, or bytes of a file read line by line).
     */
    public String of(final long count, final long done, final long total) {
        final double seconds = Math.max(1e-9, (nanoClock.getAsLong() - startNanos) / 1e9);
        final String rate = String.format(Locale.ROOT, "%,.0f/s", count / seconds);
        if (total <= 0 || done <= 0) {
            return rate;
        }
        final double share = Math.min(1.0, (double) done / total);
        final double left = seconds * (1 - share) / share;
        return String.format(Locale.ROOT, "%.0f %%, %s, about %s left", share * 100, rate, duration(left));
    }

    /** A time left as people read it: "40 s", "12 min", "1.5 h". */
    public static String duration(final double seconds) {
        if (seconds < 90) {
            return String.format(Locale.ROOT, "%.0f s", Math.ceil(seconds));
        }
        if (seconds < 5400) {
            return String.format(Locale.ROOT, "%.0f min", seconds / 60);
        }
        return String.format(Locale.ROOT, "%.1f h", seconds / 3600);
    }
}
