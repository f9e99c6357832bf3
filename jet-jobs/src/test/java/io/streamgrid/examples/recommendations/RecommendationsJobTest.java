package io.streamgrid.examples.recommendations;

import com.hazelcast.jet.Job;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.event.BuiltInEvents;
import io.streamgrid.jobs.event.ClickAction;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedJobs;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Design of this test: 300 users click through 2,000 items (category = item % 20) in sessions with
 * pauses of up to two minutes and, now and then, of 40 minutes (a new session); some clicks come a
 * few seconds out of order, and 5 % of the items have no neighbours. After the stream, each user's
 * {@code state.recommendations} must equal what an oracle computes from that user's clicks alone,
 * in closed form: affinity per category as the sum of each click's weight halved per half-life
 * between its time (or the newest earlier one, for a click out of order) and the last click's; the
 * last 20 items; the session by its gaps; the last item's neighbours scored and ranked. Scores are
 * compared to 1e-9 relative (the job decays step by step, the oracle in one power), rankings
 * exactly except between scores that close.
 */
class RecommendationsJobTest extends EmbeddedMemberTest {
    private static final int USERS = 300;
    private static final int ITEMS = 2_000;
    private static final long HALF_LIFE = 600_000;
    private static final long SESSION_GAP = 1_800_000;
    private static final int TOP = 5;
    private static final int HISTORY = 20;

    record Click(long user, long time, long item, int category, ClickAction action) {
    }

    @Test
    void when_usersClickThroughSessions_then_eachUsersRecommendationsEqualTheOracles() {
        final SplittableRandom random = new SplittableRandom(15);
        final Map<Long, ItemNeighbours> neighbours = new HashMap<>();
        for (long item = 0; item < ITEMS; item++) {
            if (random.nextInt(20) == 0) {
                continue; // no neighbours: an empty recommendation
            }
            final int n = random.nextInt(3, 12);
            final long[] items = new long[n];
            final int[] categories = new int[n];
            final long[] counts = new long[n];
            for (int i = 0; i < n; i++) {
                items[i] = (item + 1 + random.nextInt(ITEMS - 1)) % ITEMS; // never the item itself, possibly repeated
                categories[i] = (int) (items[i] % 20);
                counts[i] = random.nextInt(1, 60);
            }
            neighbours.put(item, new ItemNeighbours(items, categories, counts));
        }
        final List<Click> clicks = new ArrayList<>();
        for (long user = 0; user < USERS; user++) {
            long time = 1_767_225_600_000L + random.nextLong(3_600_000);
            for (int c = random.nextInt(5, 60); c > 0; c--) {
                time += random.nextInt(50) == 0 ? 2_400_000 : random.nextInt(1_000, 120_000);
                final long item = random.nextInt(ITEMS);
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
        final Map<Long, Recommendations> expected = oracle(clicks, neighbours);

        final BuiltInEvents events = new BuiltInEvents();
        try (SchemaLog log = SchemaLog.open(SchemaLog.directoryOf(dir, RecommendationsJob.CLICK.name()), RecommendationsJob.CLICK, 4)) {
            long sequence = 0;
            for (final Click c : clicks) {
                final SchemaRecord record = events.click(c.time(), sequence++, c.user(), c.item(), c.category(), c.action());
                log.append(record);
            }
            log.appendEndOfStream();
        }
        startMember();
        member.getMap(RecommendationsJob.NEIGHBOURS).putAll(neighbours);
        final Job running = KeyedJobs.submit(member.getJet(),
                new RecommendationsJob(HALF_LIFE, SESSION_GAP, TOP, HISTORY).job(), JobOptions.of(dir).withLocalParallelism(2));
        try {
            await().atMost(Duration.ofMinutes(1)).until(() -> mismatches(expected).isEmpty());
        } catch (final ConditionTimeoutException e) {
            final List<String> differ = mismatches(expected);
            throw new AssertionError(differ.size() + " of " + USERS + " users differ from the oracle, e.g. "
                    + differ.subList(0, Math.min(3, differ.size())), e);
        }
        final Map<Long, Recommendations> found = Map.copyOf(member.<Long, Recommendations>getMap(RecommendationsJob.RECOMMENDATIONS));
        final long empty = found.values().stream().filter(r -> r.items().length == 0).count();
        System.out.println(clicks.size() + " clicks of " + USERS + " users: " + expected.size() + " expected, " + found.size()
                + " found, " + mismatches(expected).size() + " differ; " + empty + " with no neighbours to recommend");
        assertThat(found).hasSize(USERS);
        assertThat(mismatches(expected)).isEmpty();
        assertThat(empty).as("users whose last item has no neighbours").isPositive();
        assertThat(member.getMap(new RecommendationsJob().job().lateMap()).size()).isZero();
        running.cancel();
    }

    /** Users whose recommendations differ from the oracle's, with both. */
    private List<String> mismatches(final Map<Long, Recommendations> expected) {
        final Map<Long, Recommendations> found = Map.copyOf(member.<Long, Recommendations>getMap(RecommendationsJob.RECOMMENDATIONS));
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
                || want.sessionViews() != got.sessionViews() || want.lastClick() != got.lastClick()
                || want.items().length != got.items().length) {
            return false;
        }
        for (int i = 0; i < want.items().length; i++) {
            if (!close(want.scores()[i], got.scores()[i])) {
                return false;
            }
            final boolean tiedWithNeighbour = i > 0 && close(want.scores()[i], want.scores()[i - 1])
                    || i + 1 < want.items().length && close(want.scores()[i], want.scores()[i + 1]);
            if (want.items()[i] != got.items()[i] && !tiedWithNeighbour) {
                return false;
            }
        }
        return true;
    }

    private static boolean close(final double a, final double b) {
        return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.abs(a));
    }

    /** Each user's recommendations after their last click, from their clicks alone (in log order). */
    private static Map<Long, Recommendations> oracle(final List<Click> clicks, final Map<Long, ItemNeighbours> neighbours) {
        final Map<Long, List<Click>> byUser = new HashMap<>();
        for (final Click c : clicks) {
            byUser.computeIfAbsent(c.user(), u -> new ArrayList<>()).add(c);
        }
        final Map<Long, Recommendations> result = new HashMap<>();
        byUser.forEach((user, own) -> {
            // Each click counts from its effective time: its own, or the newest before it when it came out of order.
            final long[] effective = new long[own.size()];
            long newest = Long.MIN_VALUE;
            long sessionStart = 0;
            int sessionViews = 0;
            for (int k = 0; k < own.size(); k++) {
                final long t = own.get(k).time();
                if (newest == Long.MIN_VALUE || t - newest > SESSION_GAP) {
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
                        * Math.pow(0.5, (double) (newest - effective[k]) / HALF_LIFE);
            }
            final List<Long> history = own.subList(Math.max(0, own.size() - HISTORY), own.size()).stream().map(Click::item).toList();
            final Click last = own.get(own.size() - 1);
            final ItemNeighbours n = neighbours.get(last.item());
            final List<long[]> ranked = new ArrayList<>(); // {item, index}
            if (n != null) {
                for (int i = 0; i < n.items().length; i++) {
                    if (!history.contains(n.items()[i])) {
                        ranked.add(new long[] {n.items()[i], i});
                    }
                }
            }
            final double[] score = new double[n == null ? 0 : n.items().length];
            for (final long[] r : ranked) {
                final int i = (int) r[1];
                score[i] = n.counts()[i] * (1 + affinity[n.categories()[i]]);
            }
            ranked.sort(Comparator.<long[]>comparingDouble(r -> -score[(int) r[1]]).thenComparingLong(r -> r[0]));
            final int size = Math.min(TOP, ranked.size());
            final long[] items = new long[size];
            final double[] scores = new double[size];
            for (int i = 0; i < size; i++) {
                items[i] = ranked.get(i)[0];
                scores[i] = score[(int) ranked.get(i)[1]];
            }
            int top = -1;
            for (int c = 0; c < affinity.length; c++) {
                if (affinity[c] > 0 && (top < 0 || affinity[c] > affinity[top])) {
                    top = c;
                }
            }
            result.put(user, new Recommendations(user, items, scores, top, sessionStart, sessionViews, last.time()));
        });
        return result;
    }
}
