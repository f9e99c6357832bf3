package io.streamgrid.jobs.keyed;

import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.JobStatus;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.schema.KeyPartitions;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A keyed job's state time-to-live ({@code KeyedJob.Builder.stateTtl}) against a brute-force oracle
 * (and, in the second test, {@code stateTtlInProcessingTime} by the wall clock):
 * a count per key that starts again at 1 when the key's state expired — 10 s of event time after it
 * was last written, by the partition's watermark when the key's next event comes. 6,000 events of 30
 * keys, 0–3 s apart, in 4 partitions; the job restarts from its snapshot twice mid-stream, so the
 * states' write times must come back from the snapshot too (were they lost, every restored state
 * would expire at once or never). The count each event saw must equal the oracle's for every event.
 */
class KeyedStateTtlTest extends EmbeddedMemberTest {
    static final EventSchema TICK = EventSchema.builder("ttl-tick").longKey("k").eventTime("ts").build();
    static final String MAP = "state.ttl-counts";
    private static final long TTL = 10_000;
    private static final int PARTITIONS = 4;

    /** Counts a key's events since its state last expired; writes each event's count under its sequence. */
    static final class CountsSinceExpiry implements KeyedFunction<long[]> {
        @Override
        public void onEvent(final SchemaRecord event, final KeyedContext<long[]> context) {
            final long[] state = context.state();
            final long count = state == null ? 1 : state[0] + 1;
            context.setState(new long[] {count});
            context.put(MAP, event.sequence(), count);
        }
    }

    private record Tick(long key, long time, long sequence) {
    }

    @Test
    void when_keysGoQuietLongerThanTheTtl_then_theirCountsStartAgainAsTheOracleSays() throws Exception {
        final List<Tick> ticks = new ArrayList<>();
        final SplittableRandom random = new SplittableRandom(5);
        long time = 1_767_225_600_000L;
        for (int i = 0; i < 6_000; i++) {
            time += random.nextInt(3_001);
            ticks.add(new Tick(random.nextInt(30), time, i));
        }
        final Map<Long, Long> expected = oracle(ticks);
        assertThat(expected.values().stream().filter(count -> count == 1).count())
                .as("keys expire and start again many times").isGreaterThan(100);

        final KeyedJob<long[]> job = KeyedJob.<long[]>builder("ttl-counts", TICK).function(new CountsSinceExpiry())
                .state(StateCodec.longs(1)).writes(MAP).stateTtl(TTL).build();
        final JobOptions options = JobOptions.of(dir).withSnapshotInterval(100).withLocalParallelism(2);
        startMember();
        try (SchemaLog log = SchemaLog.open(Jobs.logDirectory(job, options), TICK, PARTITIONS)) {
            append(log, ticks.subList(0, 2_000));
            final Job running = Jobs.submit(member.getJet(), job, options);
            for (int third = 1; third < 3; third++) {
                await().atMost(Duration.ofMinutes(1)).until(() -> running.getStatus() == JobStatus.RUNNING);
                Thread.sleep(300);
                running.restart();
                append(log, ticks.subList(third * 2_000, (third + 1) * 2_000));
            }
            log.appendEndOfStream();
            JobTestSupport.awaitEqual(expected, () -> Map.copyOf(member.<Long, Long>getMap(MAP)), Duration.ofMinutes(2), running);
            System.out.println(expected.size() + " events expected, " + member.getMap(MAP).size() + " found with the oracle's counts; "
                    + expected.values().stream().filter(count -> count == 1).count() + " began a key's count");
            running.cancel();
        }
    }

    /**
     * A TTL in processing time: states expire by the wall clock, not by event time (the events jump an
     * hour apart, so an event-time TTL would expire every state), and a restart keeps each state's
     * write time — a count written just before the restart goes on after it.
     */
    @Test
    void when_keysGoQuietLongerThanAWallClockTtl_then_theirCountsStartAgainThroughARestart() throws Exception {
        final long ttlMs = 10_000; // the restart and the third round must fit well inside it, also on a loaded machine
        final KeyedJob<long[]> job = KeyedJob.<long[]>builder("ttl-wall-clock", TICK).function(new CountsSinceExpiry())
                .state(StateCodec.longs(1)).writes(MAP).stateTtlInProcessingTime(ttlMs).build();
        final JobOptions options = JobOptions.of(dir).withSnapshotInterval(100).withLocalParallelism(2);
        startMember();
        final Map<Long, Long> expected = new HashMap<>();
        final long[] sequence = {0};
        final long[] time = {1_767_225_600_000L};
        try (SchemaLog log = SchemaLog.open(Jobs.logDirectory(job, options), TICK, PARTITIONS)) {
            final Job running = Jobs.submit(member.getJet(), job, options);
            final java.util.function.BiConsumer<Integer, Long> round = (keys, count) -> {
                final List<Tick> ticks = new ArrayList<>();
                for (int key = 0; key < keys; key++) {
                    ticks.add(new Tick(key, time[0] += 3_600_000, sequence[0]));
                    expected.put(sequence[0]++, count);
                }
                append(log, ticks);
                JobTestSupport.awaitEqual(expected, () -> Map.copyOf(member.<Long, Long>getMap(MAP)), Duration.ofMinutes(1), running);
            };
            round.accept(10, 1L);
            round.accept(10, 2L);
            await().atMost(Duration.ofMinutes(1)).until(() -> running.getStatus() == JobStatus.RUNNING);
            Thread.sleep(300); // a snapshot after the second round
            running.restart();
            round.accept(5, 3L); // within the TTL of the second round, after the restart: the write times came back
            Thread.sleep(ttlMs + 1_000);
            round.accept(10, 1L); // quiet longer than the TTL: every count starts again
            round.accept(10, 2L);
            System.out.println(expected.size() + " events, each with the count a wall-clock TTL of " + ttlMs + " ms gives");
            running.cancel();
        }
    }

    @Test
    void when_aNegativeTtlIsGiven_then_theBuilderRefusesIt() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> KeyedJob.<long[]>builder("bad-ttl", TICK).stateTtl(-1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("stateTtl");
    }

    /** Per partition in log order: the watermark is the newest time before the event (no disorder allowed). */
    private static Map<Long, Long> oracle(final List<Tick> ticks) {
        final Map<Long, Long> countAt = new HashMap<>();
        final long[] watermark = new long[PARTITIONS];
        java.util.Arrays.fill(watermark, Long.MIN_VALUE);
        final Map<Long, long[]> state = new HashMap<>(); // key -> {count, written at}
        for (final Tick tick : ticks) {
            final int partition = KeyPartitions.partitionOf(tick.key(), PARTITIONS);
            final long[] current = state.get(tick.key());
            final boolean expired = current == null
                    || watermark[partition] != Long.MIN_VALUE && current[1] + TTL <= watermark[partition];
            final long count = expired ? 1 : current[0] + 1;
            state.put(tick.key(), new long[] {count, tick.time()});
            countAt.put(tick.sequence(), count);
            watermark[partition] = Math.max(watermark[partition], tick.time());
        }
        return countAt;
    }

    private static void append(final SchemaLog log, final List<Tick> ticks) {
        final SchemaRecord record = new SchemaRecord(TICK.layout());
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        for (final Tick tick : ticks) {
            record.wrapForWrite(buffer, 0).sequence(tick.sequence()).setLong(0, tick.key()).setTimestamp(1, tick.time());
            log.append(record);
        }
    }
}
