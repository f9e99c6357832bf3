package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.KeyPartitions;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.JobStatus;
import com.hazelcast.map.IMap;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.keyed.KeyedContext;
import io.streamgrid.jobs.keyed.KeyedFunction;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.StateCodec;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.core.time.SetTimeProvider;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Design of this test: a log of two partitions holds ten past days of events (appended with
 * Chronicle's clock set to each day, so each day has its file) and today's. The rule keeps three
 * days. A job that has not completed two checkpoints holds the whole log; once it is cancelled
 * and a second job has checkpointed past the old days, the seven oldest days of each partition
 * are deleted — and that job restarts from its checkpoint and reads on, and a new job from the
 * beginning reads exactly what is left. A size rule then deletes the older kept days too, never
 * today's (the second job's checkpoint needs it).
 */
public class LogRetentionTest {
    public static final EventSchema AMOUNT = EventSchema.builder("amount").longKey("account").eventTime("ts").int64("cents").build();
    public static final int PARTITIONS = 2;
    private static final int PAST_DAYS = 10;
    private static final int PER_DAY_AND_PARTITION = 100;
    private static final long DAY_MS = TimeUnit.DAYS.toMillis(1);

    @TempDir
    Path ingestDir;
    private HazelcastInstance member;

    @AfterEach
    void stopMember() {
        if (member != null) {
            member.shutdown();
        }
    }

    /** Per job (by its map), the events it has read. */
    static final class Count implements KeyedFunction<long[]> {
        private final String map;

        Count(final String map) {
            this.map = map;
        }

        @Override
        public void onEvent(final SchemaRecord event, final KeyedContext<long[]> context) {
            long[] count = context.state();
            if (count == null) {
                count = new long[1];
                context.setState(count);
            }
            count[0]++;
            context.put(map, context.longKey(), count[0]);
        }
    }

    private static KeyedJob<long[]> counting(final String name) {
        final String map = "state." + name;
        return KeyedJob.<long[]>builder(name, AMOUNT).function(new Count(map)).state(StateCodec.longs(1))
                .time(TimePolicy.of(0, 365L * 24 * 3_600_000).withMaxFuture(30L * DAY_MS)).writes(map).build();
    }

    private long read(final String job) {
        return member.<Long, Long>getMap("state." + job).values().stream().mapToLong(Long::longValue).sum();
    }

    @Test
    void when_oldDaysAreOnlyNeededByNoJob_then_theyAreDeletedAndJobsReadOnFromWhatIsLeft() throws Exception {
        member = JobTestSupport.embeddedMember();
        final Path logDir = SchemaLog.directoryOf(ingestDir, AMOUNT.name());
        final long today = LocalDate.now(java.time.ZoneOffset.UTC).toEpochDay();
        long account = 0;
        try (SchemaLog log = SchemaLog.open(logDir, AMOUNT, PARTITIONS)) {
            for (int p = 0; p < PARTITIONS; p++) {
                for (long day = today - PAST_DAYS; day < today; day++) {
                    account = appendPast(logDir, p, day, account);
                }
            }
            appendToday(log, 50, 1_000_000);
        }
        final long total = PAST_DAYS * PARTITIONS * PER_DAY_AND_PARTITION + 50;
        assertThat(dayFiles(logDir)).hasSize((PAST_DAYS + 1) * PARTITIONS);
        final List<String> logged = new ArrayList<>();
        final LogRetention retention = new LogRetention(member, ingestDir, new LogRetention.Rule(3, 0), logged::add);

        // A job without two completed checkpoints (its interval is an hour) holds everything.
        final Job holding = Jobs.submit(member.getJet(), counting("holding"), JobOptions.of(ingestDir).withSnapshotInterval(3_600_000));
        await().atMost(Duration.ofMinutes(1)).until(() -> read("holding") == total);
        final LogRetention.Report held = retention.run(System.currentTimeMillis());
        System.out.println("held back: " + held.heldBack());
        assertThat(held.deleted()).as("days deleted while a job holds them").isEmpty();
        assertThat(held.heldBack()).hasSize(PARTITIONS)
                .allSatisfy(reason -> assertThat(reason).contains("job 'holding' has not completed two checkpoints"));
        assertThat(logged).anySatisfy(line -> assertThat(line).startsWith("ingest retention holds back"));

        // A job that checkpoints past the old days, and the holder gone: the seven oldest days go.
        final Job reading = Jobs.submit(member.getJet(), counting("reading"), JobOptions.of(ingestDir).withSnapshotInterval(200));
        await().atMost(Duration.ofMinutes(1)).until(() -> read("reading") == total);
        holding.cancel();
        await().atMost(Duration.ofMinutes(1)).until(() -> resumesFromToday(reading));
        final LogRetention.Report pruned = retention.run(System.currentTimeMillis());
        System.out.println(pruned.deleted().size() + " day files deleted, " + pruned.deletedBytes() + " bytes; held back: "
                + pruned.heldBack());
        assertThat(pruned.deleted()).hasSize(7 * PARTITIONS);
        assertThat(pruned.heldBack()).isEmpty();
        assertThat(dayFiles(logDir)).hasSize(4 * PARTITIONS).allSatisfy(file -> assertThat(dayOf(file)).isGreaterThanOrEqualTo(today - 3));
        assertThat(member.getMap(LogPositions.MAP).keySet()).as("positions of the cancelled job").noneMatch(
                key -> key.toString().startsWith(holding.getId() + "|"));

        // The checkpointing job restarts from its checkpoint and reads on; a new job reads what is left.
        reading.restart();
        try (SchemaLog log = SchemaLog.openExisting(logDir, AMOUNT)) {
            appendToday(log, 20, 2_000_000);
        }
        await().atMost(Duration.ofMinutes(1)).until(() -> read("reading") == total + 20);
        final Job fresh = Jobs.submit(member.getJet(), counting("fresh"), JobOptions.of(ingestDir).withSnapshotInterval(200));
        final long left = 3L * PARTITIONS * PER_DAY_AND_PARTITION + 50 + 20;
        await().atMost(Duration.ofMinutes(1)).until(() -> read("fresh") == left);
        System.out.println(total + 20 + " events read by the restarted job; " + left + " expected and " + read("fresh")
                + " read by a new one from what is left");

        // A size limit of one byte: every older day goes, today's stays (the newest file, and the jobs resume there).
        fresh.cancel();
        await().atMost(Duration.ofMinutes(1)).until(() -> resumesFromToday(reading));
        final LogRetention.Report sized = new LogRetention(member, ingestDir, new LogRetention.Rule(0, 1), line -> { })
                .run(System.currentTimeMillis());
        assertThat(sized.deleted()).hasSize(3 * PARTITIONS);
        assertThat(dayFiles(logDir)).hasSize(PARTITIONS).allSatisfy(file -> assertThat(dayOf(file)).isEqualTo(today));
        assertThat(read("reading")).isEqualTo(total + 20);
        assertThat(reading.getStatus()).isEqualTo(JobStatus.RUNNING);
        reading.cancel();
    }

    /** Whether every position of {@code job} resumes after a record of today's. */
    private boolean resumesFromToday(final Job job) {
        final IMap<String, long[]> positions = member.getMap(LogPositions.MAP);
        final long today = LocalDate.now(java.time.ZoneOffset.UTC).toEpochDay();
        final List<long[]> mine = positions.entrySet().stream().filter(e -> e.getKey().startsWith(job.getId() + "|"))
                .map(Map.Entry::getValue).toList();
        return mine.size() == PARTITIONS && mine.stream().allMatch(
                p -> p[0] != PartitionReader.START && RollCycles.FAST_DAILY.toCycle(p[0]) == today);
    }

    /**
     * Appends {@value #PER_DAY_AND_PARTITION} events of {@link #AMOUNT} to {@code partition} of the
     * log in {@code logDir} with Chronicle's clock on {@code day} (epoch day), so they land in that
     * day's file; returns the next account.
     */
    public static long appendPast(final Path logDir, final int partition, final long day, final long firstAccount) {
        final SchemaRecord record = new SchemaRecord(AMOUNT.layout());
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[AMOUNT.layout().length()]);
        final long noon = day * DAY_MS + DAY_MS / 2;
        long account = firstAccount;
        try (SingleChronicleQueue queue = SingleChronicleQueueBuilder.binary(logDir.resolve(String.format("p-%03d", partition)))
                .rollCycle(RollCycles.FAST_DAILY).timeProvider(new SetTimeProvider(java.time.Instant.ofEpochMilli(noon))).build();
             ExcerptAppender appender = queue.createAppender()) {
            for (int written = 0; written < PER_DAY_AND_PARTITION; account++) {
                if (KeyPartitions.partitionOf(account, PARTITIONS) != partition) {
                    continue;
                }
                record.wrapForWrite(buffer, 0).sequence(account).setLong(0, account).setTimestamp(1, noon + written).setLong(2, 1);
                try (DocumentContext document = appender.writingDocument()) {
                    final Bytes<?> bytes = document.wire().bytes();
                    bytes.write(buffer.byteArray(), 0, AMOUNT.layout().length());
                }
                written++;
            }
        }
        return account;
    }

    private static void appendToday(final SchemaLog log, final int events, final long firstAccount) {
        final SchemaRecord record = new SchemaRecord(AMOUNT.layout());
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[AMOUNT.layout().length()]);
        final long now = System.currentTimeMillis() - 60_000;
        for (int i = 0; i < events; i++) {
            record.wrapForWrite(buffer, 0).sequence(firstAccount + i).setLong(0, firstAccount + i).setTimestamp(1, now + i).setLong(2, 1);
            log.append(record);
        }
    }

    private static List<Path> dayFiles(final Path logDir) throws IOException {
        try (Stream<Path> files = Files.walk(logDir)) {
            return files.filter(f -> f.getFileName().toString().endsWith("F.cq4")).toList();
        }
    }

    private static long dayOf(final Path file) {
        return LocalDate.parse(file.getFileName().toString().substring(0, 8), java.time.format.DateTimeFormatter.BASIC_ISO_DATE)
                .toEpochDay();
    }
}
