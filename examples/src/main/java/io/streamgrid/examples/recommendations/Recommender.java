package io.streamgrid.examples.recommendations;

import java.io.Serializable;
import java.util.Arrays;

/**
 * What {@link RecommendationsJob} does per click, on a profile the caller keeps: the rules are in
 * the job's Javadoc. Immutable; the profile is mutated in place.
 */
public final class Recommender implements Serializable {
    private final long halfLifeMs;
    private final long sessionGapMs;
    private final int topK;
    private final int history;

    Recommender(final long halfLifeMs, final long sessionGapMs, final int topK, final int history) {
        this.halfLifeMs = halfLifeMs;
        this.sessionGapMs = sessionGapMs;
        this.topK = topK;
        this.history = history;
    }

    /** A user's profile before their first click. */
    public ClickProfile newProfile() {
        return new ClickProfile(RecommendationsJob.CATEGORIES, history);
    }

    /**
     * Applies a click ({@code action}: the ordinal of view, click, purchase) at event time
     * {@code time} to {@code profile} and returns the user's recommendations from the clicked
     * item's {@code neighbours} (null: none).
     */
    public Recommendations onClick(final ClickProfile profile, final long user, final long time, final long item, final int category,
                                   final int action, final ItemNeighbours neighbours) {
        if (profile.lastEvent == Long.MIN_VALUE || time - profile.lastEvent > sessionGapMs) {
            profile.sessionStart = time;
            profile.sessionViews = 0;
        }
        profile.sessionViews++;
        profile.clicks++;
        profile.decayTo(time, halfLifeMs);
        if (category >= 0 && category < RecommendationsJob.CATEGORIES) {
            profile.affinity[category] += RecommendationsJob.WEIGHTS[action];
        }
        profile.remember(item);
        final long[] items = new long[topK];
        final double[] scores = new double[topK];
        int found = 0;
        if (neighbours != null) {
            for (int n = 0; n < neighbours.items().length; n++) {
                final long candidate = neighbours.items()[n];
                if (profile.seen(candidate)) {
                    continue; // the clicked item is in the history too
                }
                final int c = neighbours.categories()[n];
                final double score = neighbours.counts()[n]
                        * (1 + (c >= 0 && c < RecommendationsJob.CATEGORIES ? profile.affinity[c] : 0));
                found = insert(items, scores, found, candidate, score);
            }
        }
        return new Recommendations(user, Arrays.copyOf(items, found), Arrays.copyOf(scores, found), profile.topCategory(),
                profile.sessionStart, profile.sessionViews, profile.clicks, time);
    }

    /** Inserts into the best-first top list (ties: lower item first); returns its new length. */
    private static int insert(final long[] items, final double[] scores, final int length, final long item, final double score) {
        int at = length;
        while (at > 0 && (scores[at - 1] < score || scores[at - 1] == score && items[at - 1] > item)) {
            at--;
        }
        if (at >= items.length) {
            return length;
        }
        final int kept = Math.min(length, items.length - 1);
        System.arraycopy(items, at, items, at + 1, kept - at);
        System.arraycopy(scores, at, scores, at + 1, kept - at);
        items[at] = item;
        scores[at] = score;
        return kept + 1;
    }
}
