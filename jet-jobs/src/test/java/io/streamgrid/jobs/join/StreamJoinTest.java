package io.streamgrid.jobs.join;

import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.JobStatus;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.KeyPartitions;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Stream joins against a brute-force oracle: every pair of a left and a right event of one key that
 * the rule matches, no other, each made once — with events out of order and behind the watermark
 * (within the allowed lateness), with one side re-keyed through a log, and with the join restored
 * from a snapshot mid-stream.
 */
class StreamJoinTest extends EmbeddedMemberTest {
    static final EventSchema ORDER = EventSchema.builder("order").longKey("customer").eventTime("ts").int64("id").build();
    static final EventSchema PAYMENT = EventSchema.builder("payment").longKey("customer").eventTime("ts").int64("id").build();
    /** Visits keyed by visitor; re-keyed by page into {@link #VISIT_BY_PAGE}. */
    static final EventSchema VISIT = EventSchema.builder("visit").longKey("visitor").eventTime("ts").int64("page").int64("id")
            .string("referrer", 20).build();
    static final EventSchema VISIT_BY_PAGE = EventSchema.builder("visit-by-page").int64("visitor").eventTime("ts").longKey("page")
            .int64("id").string("referrer", 20).build();
    static final String PAIRS = "state.pairs";
    static final long START = 1_767_225_600_000L;
    static final long DISORDER = 300;
    static final long LATENESS = 400;
    static final TimePolicy POLICY = TimePolicy.of(DISORDER, LATENESS).withIdleTimeout(500);
    private static final int PARTITIONS = 4;
    static final AtomicLong CALLS = new AtomicLong();
    static final AtomicLong FAIL_AT = new AtomicLong();

    /** Puts each pair as "leftId:rightId" -> key, counts the calls, and throws once at call {@link #FAIL_AT}. */
    static final class RecordPairs implements JoinFunction {
        @Override
        public void onPair(final SchemaRecord left, final SchemaRecord right, final JoinContext context) {
            final int leftId = left.layout().indexOf("id");
            final int rightId = right.layout().indexOf("id");
            context.put(PAIRS, left.getLong(leftId) + ":" + right.getLong(rightId), context.longKey());
            final long failAt = FAIL_AT.get();
            if (CALLS.incrementAndGet() == failAt && FAIL_AT.compareAndSet(failAt, 0)) {
                throw new IllegalStateException("failing once, on purpose, at pair " + failAt);
            }
        }
    }

    /** An event as the oracle sees it. */
    record Event(long key, long time, long id) {
    }

    /**
     * Design of this test: 4,000 orders and 4,000 payments of 150 customers, a few ms apart, each
     * event's time jittered back by up to the allowed disorder plus half the lateness, so some come
     * behind the watermark (still joined) and none beyond it. Pairs: a payment from 200 ms before to
     * 700 ms after its order. The map of pairs must equal the oracle's and the function be called
     * once per pair.
     */
    @Test
    void when_twoStreamsArriveOutOfOrderAndBehindTheWatermark_then_theIntervalJoinMakesEveryPairOfTheOracleOnce() throws Exception {
        final KeyedJob<?> job = StreamJoin.interval("order-payments", ORDER, PAYMENT, -200, 700).time(POLICY)
                .onPair(new RecordPairs()).writes(PAIRS).build();
        runAndCompare(job, (order, payment) -> payment.time - order.time >= -200 && payment.time - order.time <= 700, 0);
    }

    /** Design of this test: the same streams, joined in tumbling windows of 1 s: pairs are exactly those of one key and one window. */
    @Test
    void when_eventsShareATumblingWindow_then_theWindowJoinPairsExactlyThoseOfEachWindow() throws Exception {
        final KeyedJob<?> job = StreamJoin.tumbling("order-payments-1s", ORDER, PAYMENT, 1_000).time(POLICY)
                .onPair(new RecordPairs()).writes(PAIRS).build();
        runAndCompare(job, (order, payment) -> Math.floorDiv(order.time, 1_000) == Math.floorDiv(payment.time, 1_000), 0);
    }

    /**
     * Design of this test: the same streams and interval, each side selecting its events first (even
     * orders, payments whose id is a multiple of 3): the pairs are exactly the oracle's pairs of
     * selected events, each made once — a refused event meets no partner, whichever side it is on.
     */
    @Test
    void when_eachSideSelectsItsEventsFirst_then_onlyPairsOfSelectedEventsAreMade() throws Exception {
        final KeyedJob<?> job = StreamJoin.interval("selected-order-payments", ORDER, PAYMENT, -200, 700).time(POLICY)
                .leftWhere(order -> order.getLong(2) % 2 == 0).rightWhere(payment -> payment.getLong(2) % 3 == 0)
                .onPair(new RecordPairs()).writes(PAIRS).build();
        runAndCompare(job, (order, payment) -> order.id % 2 == 0 && payment.id % 3 == 0
                && payment.time - order.time >= -200 && payment.time - order.time <= 700, 0, 300);
    }

    /**
     * Design of this test: the interval join throws once at its 6,000th pair with a 100 ms snapshot
     * interval, so it is restored from a snapshot taken before — its kept events read back from
     * it — and makes again the pairs since; resumed, its map of pairs must still equal the oracle's.
     */
    @Test
    void when_theJoinFailsMidStreamAndIsRestored_then_noPairIsLost() throws Exception {
        final KeyedJob<?> job = StreamJoin.interval("order-payments-restored", ORDER, PAYMENT, -200, 700).time(POLICY)
                .onPair(new RecordPairs()).writes(PAIRS).build();
        runAndCompare(job, (order, payment) -> payment.time - order.time >= -200 && payment.time - order.time <= 700, 3_000);
    }

    private interface Rule {
        boolean matches(Event left, Event right);
    }

    private void runAndCompare(final KeyedJob<?> job, final Rule rule, final long failAt) throws Exception {
        runAndCompare(job, rule, failAt, 2_000);
    }

    private void runAndCompare(final KeyedJob<?> job, final Rule rule, final long failAt, final int leastPairs) throws Exception {
        CALLS.set(0);
        FAIL_AT.set(failAt);
        final Random random = new Random(11);
        final List<Event> orders = new ArrayList<>();
        final List<Event> payments = new ArrayList<>();
        startMember();
        final Job running;
        try (SchemaLog orderLog = SchemaLog.open(SchemaLog.directoryOf(dir, ORDER.name()), ORDER, PARTITIONS);
             SchemaLog paymentLog = SchemaLog.open(SchemaLog.directoryOf(dir, PAYMENT.name()), PAYMENT, PARTITIONS)) {
            running = Jobs.submit(member.getJet(), job, JobOptions.of(dir).withSnapshotInterval(100));
            for (int i = 0; i < 4_000; i++) {
                orders.add(append(orderLog, ORDER, random.nextInt(150), START + i * 3L - random.nextInt((int) (DISORDER + LATENESS / 2)), i));
                payments.add(append(paymentLog, PAYMENT, random.nextInt(150), START + i * 3L - random.nextInt((int) (DISORDER + LATENESS / 2)),
                        100_000 + i));
                if (i % 250 == 249) {
                    Thread.sleep(100); // snapshots while the streams arrive
                }
            }
            orderLog.appendEndOfStream();
            paymentLog.appendEndOfStream();
        }
        final Map<String, Long> expected = new HashMap<>();
        for (final Event order : orders) {
            for (final Event payment : payments) {
                if (order.key == payment.key && rule.matches(order, payment)) {
                    expected.put(order.id + ":" + payment.id, order.key);
                }
            }
        }
        if (failAt > 0) {
            await().atMost(Duration.ofMinutes(1)).until(() -> running.getStatus() == JobStatus.SUSPENDED);
            running.resume();
        }
        JobTestSupport.awaitEqual(expected, () -> Map.copyOf(member.<String, Long>getMap(PAIRS)), Duration.ofMinutes(2), running);
        System.out.println(job.name() + ": " + expected.size() + " pairs expected, " + member.getMap(PAIRS).size() + " found, "
                + CALLS.get() + " calls of the pair function (" + (CALLS.get() - expected.size()) + " made again after a restore)");
        assertThat(expected.size()).as("the streams have pairs to find").isGreaterThan(leastPairs);
        assertThat(member.getMap(job.lateMap()).size()).as("events beyond the lateness").isZero();
        if (failAt == 0) {
            assertThat(CALLS.get()).as("each pair made once").isEqualTo(expected.size());
        } else {
            assertThat(CALLS.get() - expected.size()).as("pairs made again: since a snapshot taken after the start")
                    .isPositive().isLessThan(failAt);
        }
        running.cancel();
    }

    /**
     * Design of this test: visits keyed by visitor are re-keyed by page into another log and joined
     * there with page updates by page (a visit and the updates of its page in the 500 ms before it),
     * the join started before the re-key has written anything: the pairs must equal the oracle's,
     * and the re-keyed copies keep every field, the string too. The re-key copies only the visits
     * its filter keeps (not those from referrer "ref-3"): the others never pair.
     */
    @Test
    void when_aStreamKeyedOtherwiseIsRekeyedAndJoined_then_thePairsEqualTheOracle() throws Exception {
        final EventSchema pageUpdate = EventSchema.builder("page-update").longKey("page").eventTime("ts").int64("id").build();
        // Visits from one referrer are not copied: none of them may pair.
        final KeyedJob<?> rekey = StreamJoin.rekey("visits-by-page", VISIT, VISIT_BY_PAGE, visit -> !visit.getString(4).equals("ref-3"));
        // An idle timeout above the re-key job's start: a re-keyed log waits for its writer, not a heartbeat past it. And
        // a disorder above the re-key's partitions' skew: the stream comes at ~8 times its event-time pace here, so a
        // second of skew between them on a loaded machine is 8 s of event time.
        final KeyedJob<?> join = StreamJoin.interval("visit-updates", VISIT_BY_PAGE, pageUpdate, -500, 0)
                .time(TimePolicy.of(10_000, LATENESS).withIdleTimeout(10_000))
                .onPair((visit, update, context) -> context.put(PAIRS, visit.getLong(3) + ":" + update.getLong(2),
                        visit.getString(4) + "@" + context.longKey()))
                .writes(PAIRS).build();
        final Random random = new Random(5);
        final Map<String, String> expected = new HashMap<>();
        final List<long[]> visits = new ArrayList<>();
        final List<long[]> updates = new ArrayList<>();
        startMember();
        final Job rekeying;
        final Job joining;
        try (SchemaLog visitLog = SchemaLog.open(SchemaLog.directoryOf(dir, VISIT.name()), VISIT, PARTITIONS);
             SchemaLog updateLog = SchemaLog.open(SchemaLog.directoryOf(dir, pageUpdate.name()), pageUpdate, PARTITIONS)) {
            rekeying = Jobs.submit(member.getJet(), rekey, JobOptions.of(dir));
            await().atMost(Duration.ofMinutes(1)).until(() -> SchemaLog.exists(SchemaLog.directoryOf(dir, VISIT_BY_PAGE.name())));
            joining = Jobs.submit(member.getJet(), join, JobOptions.of(dir));
            final SchemaRecord visit = new SchemaRecord(VISIT.layout());
            final UnsafeBuffer visitBuffer = new UnsafeBuffer(new byte[VISIT.layout().length()]);
            for (int i = 0; i < 3_000; i++) {
                final long time = START + i * 4L - random.nextInt((int) DISORDER);
                final long[] v = {random.nextInt(500), time, random.nextInt(40), i};
                visits.add(v);
                visitLog.append(visit.wrapForWrite(visitBuffer, 0).sequence(i).setLong(0, v[0]).setTimestamp(1, time).setLong(2, v[2])
                        .setLong(3, i).setString(4, "ref-" + (i % 7)));
                updates.add(new long[] {random.nextInt(40), START + i * 4L - random.nextInt((int) DISORDER), 50_000 + i});
                final long[] u = updates.get(updates.size() - 1);
                append(updateLog, pageUpdate, u[0], u[1], u[2]);
                if (i % 100 == 99) {
                    Thread.sleep(50); // 400 ms of event time every 50 ms
                }
            }
            // The re-keyed log has no end of its own (many writers): a last visit in each of its partitions, 10 s of event
            // time later and pairing with nothing, lets the join's merge take the updates still waiting behind it.
            final boolean[] covered = new boolean[PARTITIONS];
            for (long page = 1_000; !allTrue(covered); page++) {
                final int partition = KeyPartitions.partitionOf(page, PARTITIONS);
                if (!covered[partition]) {
                    covered[partition] = true;
                    visitLog.append(visit.wrapForWrite(visitBuffer, 0).sequence(10_000 + page).setLong(0, 1).setTimestamp(1, START + 22_000)
                            .setLong(2, page).setLong(3, -page).setString(4, "end"));
                }
            }
            visitLog.appendEndOfStream();
            updateLog.appendEndOfStream();
        }
        for (final long[] v : visits) {
            for (final long[] u : updates) {
                if (v[3] % 7 != 3 && v[2] == u[0] && u[1] - v[1] >= -500 && u[1] - v[1] <= 0) {
                    expected.put(v[3] + ":" + u[2], "ref-" + (v[3] % 7) + "@" + v[2]);
                }
            }
        }
        try {
            JobTestSupport.awaitEqual(expected, () -> Map.copyOf(member.<String, String>getMap(PAIRS)), Duration.ofMinutes(2), joining);
        } finally {
            System.out.println("late in the join: " + member.getMap(join.lateMap()).size() + "; first: "
                    + member.getMap(join.lateMap()).values().stream().findFirst().orElse(null));
        }
        System.out.println("visits re-keyed by page and joined: " + expected.size() + " pairs expected, " + member.getMap(PAIRS).size()
                + " found");
        assertThat(expected.size()).isGreaterThan(1_000);
        assertThat(member.getMap(join.lateMap()).size()).isZero();
        rekeying.cancel();
        joining.cancel();
    }

    @Test
    void when_aJoinOrRekeyIsMisdeclared_then_itIsRefusedNamingWhy() {
        assertThatThrownBy(() -> StreamJoin.interval("j", ORDER, PAYMENT, 10, -10))
                .hasMessageContaining("lower bound 10 ms is above its upper bound -10 ms");
        assertThatThrownBy(() -> StreamJoin.tumbling("j", ORDER, PAYMENT, 0)).hasMessageContaining("at least 1 ms");
        assertThatThrownBy(() -> StreamJoin.interval("j", ORDER, ORDER, 0, 10).time(POLICY).onPair((l, r, c) -> { }).build())
                .hasMessageContaining("joins schema order with itself");
        assertThatThrownBy(() -> StreamJoin.interval("j", ORDER, PAYMENT, 0, 10).time(TimePolicy.of(0, 0)).onPair((l, r, c) -> { }).build())
                .hasMessageContaining("idle timeout");
        final EventSchema stringKeyed = EventSchema.builder("receipt").stringKey("customer", 8).eventTime("ts").int64("id").build();
        assertThatThrownBy(() -> StreamJoin.interval("j", ORDER, stringKeyed, 0, 10).time(POLICY).onPair((l, r, c) -> { }).build())
                .hasMessageContaining("their keys are long and string");
        assertThatThrownBy(() -> StreamJoin.rekey("r", VISIT, ORDER)).hasMessageContaining("schema order has no field visitor of visit");
        final EventSchema typedOtherwise = EventSchema.builder("visit-other").longKey("page").eventTime("ts").int64("visitor")
                .string("id", 8).string("referrer", 20).build();
        assertThatThrownBy(() -> StreamJoin.rekey("r", VISIT, typedOtherwise))
                .hasMessageContaining("field id is long in visit but string of at most 8 bytes in visit-other");
        final EventSchema shorter = EventSchema.builder("visit-short").int64("visitor").eventTime("ts").longKey("page").int64("id")
                .string("referrer", 10).build();
        assertThatThrownBy(() -> StreamJoin.rekey("r", VISIT, shorter))
                .hasMessageContaining("field referrer is string of at most 20 bytes in visit but string of at most 10 bytes in visit-short");
    }

    private static boolean allTrue(final boolean[] values) {
        for (final boolean value : values) {
            if (!value) {
                return false;
            }
        }
        return true;
    }

    private static Event append(final SchemaLog log, final EventSchema schema, final long key, final long time, final long id) {
        final SchemaRecord record = new SchemaRecord(schema.layout());
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[schema.layout().length()]);
        log.append(record.wrapForWrite(buffer, 0).sequence(id).setLong(0, key).setTimestamp(1, time).setLong(2, id));
        return new Event(key, time, id);
    }
}
