package io.streamgrid.examples.recommendations;

import java.util.Arrays;

/**
 * A user's recommendations as {@code state.recommendations} holds them, rewritten on every click:
 * the top items, best first, with their scores; and the profile they came from — the user's
 * strongest category, the current session's start and the items viewed in it, the user's clicks so
 * far, the click's time.
 */
public record Recommendations(long user, long[] items, double[] scores, int topCategory, long sessionStart, int sessionViews,
                              long clicks, long lastClick) {
    @Override
    public boolean equals(final Object o) {
        return o instanceof Recommendations r && user == r.user && Arrays.equals(items, r.items) && Arrays.equals(scores, r.scores)
                && topCategory == r.topCategory && sessionStart == r.sessionStart && sessionViews == r.sessionViews
                && clicks == r.clicks && lastClick == r.lastClick;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(user) * 31 + Arrays.hashCode(items);
    }

    @Override
    public String toString() {
        return "Recommendations[user=" + user + ", items=" + Arrays.toString(items) + ", scores=" + Arrays.toString(scores)
                + ", topCategory=" + topCategory + ", sessionStart=" + sessionStart + ", sessionViews=" + sessionViews
                + ", clicks=" + clicks + ", lastClick=" + lastClick + "]";
    }
}
