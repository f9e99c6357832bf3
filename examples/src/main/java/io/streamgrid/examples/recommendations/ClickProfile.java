package io.streamgrid.examples.recommendations;

/**
 * A user's profile, the job's keyed state: affinity per category (decayed in event time: it halves
 * every half-life), the last items seen (a ring), and the current session. Mutated in place, one
 * user at a time; its snapshot codec is derived from these fields.
 */
public final class ClickProfile {
    final double[] affinity;
    final long[] recent;
    int recentCount;
    int recentNext;
    long sessionStart;
    int sessionViews;
    /** Newest event time seen, which the affinity is decayed to; Long.MIN_VALUE before the first click. */
    long lastEvent = Long.MIN_VALUE;
    long clicks;

    ClickProfile(final int categories, final int history) {
        affinity = new double[categories];
        recent = new long[history];
    }

    /** For its derived snapshot codec ({@code StateCodec.derived}), which then sets every field. */
    private ClickProfile() {
        this(0, 0);
    }

    /**
     * Decays the affinity to event time {@code time} and makes it the newest (a click behind the
     * newest one decays nothing and moves nothing).
     */
    void decayTo(final long time, final long halfLifeMs) {
        if (lastEvent != Long.MIN_VALUE && time > lastEvent) {
            final double factor = Math.pow(0.5, (double) (time - lastEvent) / halfLifeMs);
            for (int c = 0; c < affinity.length; c++) {
                affinity[c] *= factor;
            }
        }
        lastEvent = Math.max(lastEvent, time);
    }

    /** Whether {@code item} is among the last items remembered. */
    boolean seen(final long item) {
        for (int i = 0; i < recentCount; i++) {
            if (recent[i] == item) {
                return true;
            }
        }
        return false;
    }

    void remember(final long item) {
        recent[recentNext] = item;
        recentNext = (recentNext + 1) % recent.length;
        recentCount = Math.min(recentCount + 1, recent.length);
    }

    /** The category of highest affinity, the lowest on ties; -1 when every affinity is 0. */
    int topCategory() {
        int top = -1;
        for (int c = 0; c < affinity.length; c++) {
            if (affinity[c] > 0 && (top < 0 || affinity[c] > affinity[top])) {
                top = c;
            }
        }
        return top;
    }
}
