package io.streamgrid.jobs.keyed;

import com.hazelcast.jet.Job;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongPredicate;

import static io.streamgrid.jobs.keyed.DoublingJobs.AMOUNT;
import static io.streamgrid.jobs.keyed.DoublingJobs.START;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A log a job emits into is clocked by the job's partitions, its writers: the reader's watermark is
 * the slowest writer's, however far the others ran ahead, and the reader's stream ends when every
 * writer's has — so a second stage needs no allowed disorder for the writers' drift and closes its
 * windows as the first stage goes, not at the end of the input.
 */
class WriterClockTest extends EmbeddedMemberTest {
    private static final int PARTITIONS = 4;
    private static final int ACCOUNTS = 40;
    private static final int REGIONS = 3;
    private static final long WINDOW_MS = 1_000;
    private static final EventSchema BY_REGION = EventSchema.builder("by-region").longKey("region").eventTime("ts").int64("cents").build();
    private static final String WINDOWS = "state.region-windows";

    /** Re-keys each amount by its account's region (account mod 3), time and cents kept. */
    static final class ByRegion implements LongKeyedFunction<Void> {
        @Override
        public void onEvent(final SchemaRecord event, final LongKeyContext<Void> context) {
            final SchemaRecord out = context.newEvent(BY_REGION);
            out.setLong(0, context.longKey() % REGIONS).setTimestamp(1, context.time()).setLong(2, event.getLong(2));
            context.emit(out);
        }
    }

    /** Per region and tumbling window: events and cents, written when the watermark passes the window's end. */
    static final class RegionWindows implements LongKeyedFunction<OpenWindows> {
        @Override
        public void onEvent(final SchemaRecord event, final LongKeyContext<OpenWindows> context) {
            OpenWindows open = context.state();
            if (open == null) {
                open = new OpenWindows();
            }
            final long start = Math.floorDiv(context.time(), WINDOW_MS) * WINDOW_MS;
            final long[] totals = open.byStart.computeIfAbsent(start, s -> new long[2]);
            if (totals[0] == 0) {
                context.registerTimer(start + WINDOW_MS); // no event of the window can come once the clock is at its end
            }
            totals[0]++;
            totals[1] += event.getLong(2);
            context.setState(open);
        }

        @Override
        public void onTimer(final long time, final LongKeyContext<OpenWindows> context) {
            final OpenWindows open = context.state();
            final long[] totals = open.byStart.remove(time - WINDOW_MS);
            context.put(WINDOWS, context.longKey() + "@" + (time - WINDOW_MS), totals[0] + "/" + totals[1]);
            if (open.byStart.isEmpty()) {
                context.clearState();
            } else {
                context.setState(open);
            }
        }
    }

    /** A region's windows not closed yet, by start. */
    static final class OpenWindows {
        TreeMap<Long, long[]> byStart = new TreeMap<>();
    }

    /**
     * Design of this test: 24,000 amounts, one a millisecond, over 40 accounts in 4 partitions. The
     * amounts of partitions 0 and 1 are appended first, all of them, and re-keyed by region; only
     * then come those of partitions 2 and 3 — two writers 24 s of event time behind the other two
     * in every partition of the re-keyed log. The windowing job reads it with no allowed disorder
     * and no lateness. Before the input ends, every window the slow writers passed must be written
     * with the oracle's totals; after it ends, every window; none late. Clocked by its events, as
     * before, the reader put the slow writers' amounts behind its watermark (late, so lost).
     */
    @Test
    void when_theWritersOfALogDrift_then_itsReaderFollowsTheSlowestAndLosesNothing() throws Exception {
        startMember();
        final int events = 24_000;
        try (SchemaLog amounts = SchemaLog.open(SchemaLog.directoryOf(dir, AMOUNT.name()), AMOUNT, PARTITIONS)) {
            final KeyedJob<Void> regrouping = KeyedJob.<Void>builder("by-region", AMOUNT).longKeyed(new ByRegion())
                    .state(StateCodec.none()).time(TimePolicy.of(0, 0)).emits(BY_REGION).build();
            final KeyedJob<OpenWindows> windows = KeyedJob.<OpenWindows>builder("region-windows", BY_REGION)
                    .longKeyed(new RegionWindows()).state(StateCodec.derived(OpenWindows.class)).time(TimePolicy.of(0, 0))
                    .writes(WINDOWS).build();
            final Job first = Jobs.submit(member.getJet(), regrouping, JobOptions.of(dir));
            await().atMost(Duration.ofMinutes(1)).until(() -> SchemaLog.exists(SchemaLog.directoryOf(dir, BY_REGION.name())));
            final Job second = Jobs.submit(member.getJet(), windows, JobOptions.of(dir));

            final Map<String, long[]> oracle = new TreeMap<>();
            appendPartitions(amounts, events, oracle, 0, 1);
            await().atMost(Duration.ofMinutes(1)).until(() -> JobTestSupport.emittedIn(dir, BY_REGION) == countIn(oracle)); // the fast writers are done
            Thread.sleep(500); // their clocks announced: a reader clocked by events would have run ahead now
            appendPartitions(amounts, events, oracle, 2, 3);

            // The slow writers' clock reaches the last amount's time: every window ending at or before it is due.
            final long lastTime = START + events - 1;
            final Map<String, String> closedBeforeTheEnd = expected(oracle, start -> start + WINDOW_MS <= lastTime);
            JobTestSupport.awaitEqual(closedBeforeTheEnd, () -> Map.copyOf(member.<String, String>getMap(WINDOWS)),
                    Duration.ofMinutes(1), second);
            assertThat(member.getMap(windows.lateMap()).size()).as("late events").isZero();

            amounts.appendEndOfStream();
            final Map<String, String> all = expected(oracle, start -> true);
            JobTestSupport.awaitEqual(all, () -> Map.copyOf(member.<String, String>getMap(WINDOWS)), Duration.ofMinutes(1), second);
            assertThat(member.getMap(windows.lateMap()).size()).as("late events").isZero();
            assertThat(member.getMap(windows.rejectedMap()).size()).as("rejected records").isZero();
            System.out.println(all.size() + " windows expected, " + all.size() + " found, 0 lost, 0 late; "
                    + closedBeforeTheEnd.size() + " of them closed before the input ended");
            first.cancel();
            second.cancel();
        }
    }

    /** Appends the amounts (amount i: account i mod 40, time START + i) whose partition is one of {@code partitions}, recording them in the oracle. */
    private static void appendPartitions(final SchemaLog log, final int events, final Map<String, long[]> oracle, final int... partitions) {
        final SchemaRecord record = new SchemaRecord(AMOUNT.layout());
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[AMOUNT.layout().length()]);
        for (int i = 0; i < events; i++) {
            final long account = i % ACCOUNTS;
            final long cents = 1 + (i * 7919L) % 10_000;
            record.wrapForWrite(buffer, 0).sequence(i).setLong(0, account).setTimestamp(1, START + i).setLong(2, cents);
            final int partition = log.partitionOf(account);
            if (Arrays.stream(partitions).anyMatch(p -> p == partition)) {
                log.append(record);
                final long start = Math.floorDiv(START + i, WINDOW_MS) * WINDOW_MS;
                final long[] totals = oracle.computeIfAbsent((account % REGIONS) + "@" + start, k -> new long[2]);
                totals[0]++;
                totals[1] += cents;
            }
        }
        log.flush();
    }

    private static Map<String, String> expected(final Map<String, long[]> oracle, final LongPredicate windowStart) {
        final Map<String, String> expected = new LinkedHashMap<>();
        oracle.forEach((key, totals) -> {
            if (windowStart.test(Long.parseLong(key.substring(key.indexOf('@') + 1)))) {
                expected.put(key, totals[0] + "/" + totals[1]);
            }
        });
        return expected;
    }

    private static long countIn(final Map<String, long[]> oracle) {
        return oracle.values().stream().mapToLong(t -> t[0]).sum();
    }
}
