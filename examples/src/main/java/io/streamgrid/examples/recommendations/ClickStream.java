package io.streamgrid.examples.recommendations;

import io.streamgrid.jobs.event.BuiltInEvents;
import io.streamgrid.jobs.event.ClickAction;
import io.streamgrid.jobs.ingest.SchemaLog;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A generated click stream with its truth, for tests and demos: {@code users} users click through
 * {@code items} items (category = item % 20) in sessions — pauses of up to two minutes, now and then
 * one of 40 minutes (a new session) — some clicks a few seconds out of order; and the item
 * neighbours dimension, 5 % of the items without neighbours. Seeded: the same arguments give the
 * same stream.
 */
public final class ClickStream {
    /** One click as appended; clicks of a user are in log order in {@link #clicks()}. */
    public record Click(long user, long time, long item, int category, ClickAction action) {
    }

    private final List<Click> clicks = new ArrayList<>();
    private final Map<Long, ItemNeighbours> neighbours = new HashMap<>();
    private final BuiltInEvents events = new BuiltInEvents();

    public ClickStream(final long seed, final int users, final int items, final int maxClicksPerUser) {
        final SplittableRandom random = new SplittableRandom(seed);
        for (long item = 0; item < items; item++) {
            if (random.nextInt(20) == 0) {
                continue; // no neighbours: an empty recommendation
            }
            final int n = random.nextInt(3, 12);
            final long[] related = new long[n];
            final int[] categories = new int[n];
            final long[] counts = new long[n];
            for (int i = 0; i < n; i++) {
                related[i] = (item + 1 + random.nextInt(items - 1)) % items; // never the item itself
                categories[i] = (int) (related[i] % 20);
                counts[i] = random.nextInt(1, 60);
            }
            neighbours.put(item, new ItemNeighbours(related, categories, counts));
        }
        for (long user = 0; user < users; user++) {
            long time = 1_767_225_600_000L + random.nextLong(3_600_000);
            for (int c = random.nextInt(5, maxClicksPerUser); c > 0; c--) {
                time += random.nextInt(50) == 0 ? 2_400_000 : random.nextInt(1_000, 120_000);
                final long item = random.nextInt(items);
                final int roll = random.nextInt(100);
                clicks.add(new Click(user, time, item, (int) (item % 20),
                        roll < 70 ? ClickAction.VIEW : roll < 95 ? ClickAction.CLICK : ClickAction.PURCHASE));
            }
        }
        clicks.sort(Comparator.comparingLong(Click::time));
        for (int i = 0; i + 1 < clicks.size(); i++) {
            if (random.nextInt(30) == 0 && clicks.get(i + 1).time() - clicks.get(i).time() < 3_000) {
                clicks.set(i, clicks.set(i + 1, clicks.get(i))); // a few seconds out of order, within the allowed disorder
            }
        }
    }

    public List<Click> clicks() {
        return clicks;
    }

    /** The {@code dim.item-neighbours} dimension: item → neighbours. */
    public Map<Long, ItemNeighbours> neighbours() {
        return neighbours;
    }

    /** Appends clicks {@code from} (inclusive) to {@code to} (exclusive) to {@code log}, in order. */
    public void append(final SchemaLog log, final int from, final int to) {
        for (int i = from; i < to; i++) {
            final Click c = clicks.get(i);
            log.append(events.click(c.time(), i, c.user(), c.item(), c.category(), c.action()));
        }
    }

    /**
     * The oracle: each user's recommendations after their last click, computed from that user's
     * clicks alone, in closed form — affinity per category as the sum of each click's weight halved
     * per half-life between its effective time (its own, or the newest earlier one for a click out
     * of order) and the newest; the last items; the session by its gaps; the last item's
     * neighbours scored and ranked as {@link RecommendationsJob} documents.
     */
    public Map<Long, Recommendations> expected(final RecommendationsJob job) {
        final Map<Long, List<Click>> byUser = new HashMap<>();
        for (final Click c : clicks) {
            byUser.computeIfAbsent(c.user(), u -> new ArrayList<>()).add(c);
        }
        final Map<Long, Recommendations> result = new HashMap<>();
        byUser.forEach((user, own) -> result.put(user, expectedOf(user, own, job)));
        return result;
    }

    private Recommendations expectedOf(final long user, final List<Click> own, final RecommendationsJob job) {
        final long[] effective = new long[own.size()];
        long newest = Long.MIN_VALUE;
        long sessionStart = 0;
        int sessionViews = 0;
        for (int k = 0; k < own.size(); k++) {
            final long t = own.get(k).time();
            if (newest == Long.MIN_VALUE || t - newest > job.sessionGapMs()) {
                sessionStart = t;
                sessionViews = 0;
            }
            sessionViews++;
            newest = Math.max(newest, t);
            effective[k] = newest;
        }
        final double[] affinity = new double[RecommendationsJob.CATEGORIES];
        for (int k = 0; k < own.size(); k++) {
            affinity[own.get(k).category()] += RecommendationsJob.WEIGHTS[own.get(k).action().ordinal()]
                    * Math.pow(0.5, (double) (newest - effective[k]) / job.halfLifeMs());
        }
        final List<Long> history = own.subList(Math.max(0, own.size() - job.history()), own.size()).stream().map(Click::item)
                .toList();
        final Click last = own.get(own.size() - 1);
        final ItemNeighbours n = neighbours.get(last.item());
        final List<Integer> candidates = new ArrayList<>(); // indexes into n
        final double[] score = new double[n == null ? 0 : n.items().length];
        if (n != null) {
            for (int i = 0; i < n.items().length; i++) {
                if (!history.contains(n.items()[i])) {
                    candidates.add(i);
                    score[i] = n.counts()[i] * (1 + affinity[n.categories()[i]]);
                }
            }
            candidates.sort(Comparator.<Integer>comparingDouble(i -> -score[i]).thenComparingLong(i -> n.items()[i]));
        }
        final int size = Math.min(job.topK(), candidates.size());
        final long[] items = new long[size];
        final double[] scores = new double[size];
        for (int r = 0; r < size; r++) {
            items[r] = n.items()[candidates.get(r)];
            scores[r] = score[candidates.get(r)];
        }
        int top = -1;
        for (int c = 0; c < affinity.length; c++) {
            if (affinity[c] > 0 && (top < 0 || affinity[c] > affinity[top])) {
                top = c;
            }
        }
        return new Recommendations(user, items, scores, top, sessionStart, sessionViews, own.size(), last.time());
    }

    /** The clicks the job counted, and how many of the oracle's it missed or counted twice, over all users. */
    public record ClickCount(long counted, long lost, long duplicated) {
    }

    /**
     * Clicks as {@code found} counted them against {@code expected}: each user's click count shows a
     * click lost (missing from it) or applied twice (counted twice).
     */
    public static ClickCount count(final Map<Long, Recommendations> expected, final Map<Long, Recommendations> found) {
        long lost = 0;
        long duplicated = 0;
        for (final Recommendations want : expected.values()) {
            final Recommendations got = found.get(want.user());
            final long applied = got == null ? 0 : got.clicks();
            lost += Math.max(0, want.clicks() - applied);
            duplicated += Math.max(0, applied - want.clicks());
        }
        final long counted = found.values().stream().mapToLong(Recommendations::clicks).sum();
        return new ClickCount(counted, lost, duplicated);
    }

    /**
     * Users whose {@code found} recommendations differ from {@code expected}, with both. Scores match
     * to 1e-9 relative (the job decays step by step, the oracle in one power), rankings exactly
     * except between scores that close.
     */
    public static List<String> differences(final Map<Long, Recommendations> expected, final Map<Long, Recommendations> found) {
        final List<String> differ = new ArrayList<>();
        expected.forEach((user, want) -> {
            final Recommendations got = found.get(user);
            if (got == null || !same(want, got)) {
                differ.add("expected " + want + ", found " + got);
            }
        });
        return differ;
    }

    private static boolean same(final Recommendations want, final Recommendations got) {
        if (want.topCategory() != got.topCategory() || want.sessionStart() != got.sessionStart()
                || want.sessionViews() != got.sessionViews() || want.clicks() != got.clicks() || want.lastClick() != got.lastClick()
                || want.items().length != got.items().length) {
            return false;
        }
        for (int i = 0; i < want.items().length; i++) {
            if (!close(want.scores()[i], got.scores()[i])) {
                return false;
            }
            final boolean tied = i > 0 && close(want.scores()[i], want.scores()[i - 1])
                    || i + 1 < want.items().length && close(want.scores()[i], want.scores()[i + 1]);
            if (want.items()[i] != got.items()[i] && !tied) {
                return false;
            }
        }
        return true;
    }

    private static boolean close(final double a, final double b) {
        return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));
    }
}
