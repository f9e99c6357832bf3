package io.streamgrid.jobs.pipeline;

import io.streamgrid.jobs.Jobs;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.JobStatus;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.event.BuiltInEvents;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.PartitionReader;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.usecase.IpTrafficJob;
import io.streamgrid.jobs.usecase.IpWindowCount;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.jobs.window.WindowPolicy;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** One bad clock must not make a partition's later events late; a quiet partition must not hold its last windows forever. */
class EventTimeGuardsTest extends EmbeddedMemberTest {
    private static final long HOUR = 3_600_000;
    private final BuiltInEvents events = new BuiltInEvents();

    private void request(final SchemaLog log, final int partition, final long ip, final long timestamp, final long sequence) {
        final SchemaRecord record = events.request(timestamp, sequence, ip, 0, 100, 200);
        log.append(partition, record.buffer(), record.offset(), record.length());
    }

    private SchemaLog openLog(final int partitions) {
        return SchemaLog.open(SchemaLog.directoryOf(dir, EventType.REQUEST.schema().name()), EventType.REQUEST.schema(), partitions);
    }

    @Test
    void when_oneEventIsFarInTheFuture_then_itIsRejectedAndLaterOnTimeEventsCount() {
        final long ip = 0x0a000001L;
        try (SchemaLog log = openLog(1)) {
            for (int i = 0; i < 10; i++) {
                request(log, 0, ip, 60_000 + i * 100L, i);
            }
            request(log, 0, ip, 60_000 + 10 * 365 * 24 * HOUR, 10); // a clock ten years ahead
            for (int i = 11; i < 21; i++) {
                request(log, 0, ip, 61_000 + i * 100L, i);
            }
            log.appendEndOfStream();
        }
        startMember();
        final IpTrafficJob job = new IpTrafficJob(new WindowPolicy(WindowDefinition.tumbling(60_000), 0, 0, HOUR, 0), 3.0, 100, 3);
        final Job running = Jobs.submit(member.getJet(), job, JobOptions.of(dir).withSnapshotInterval(200));

        await().atMost(Duration.ofSeconds(60)).until(() -> member.getMap(job.stateMap()).size() == 1
                && member.getMap(job.rejectedMap()).size() == 1);
        assertThat(member.<String, IpWindowCount>getMap(job.stateMap()).get(IpTrafficJob.windowKey(ip, 60_000)).count())
                .as("the 20 on-time events, in their window").isEqualTo(20);
        assertThat(member.<String, RejectedRecord>getMap(job.rejectedMap()).values()).singleElement()
                .extracting(RejectedRecord::reason).asString()
                .contains("ms ahead of the partition's watermark 60900, more than max-future-ms 3600000");
        assertThat(member.getMap(job.lateMap()).size()).as("events made late by the bad clock").isZero();
        assertThat(running.getStatus()).isEqualTo(JobStatus.RUNNING);
        running.cancel();
    }

    /**
     * Design of this test: a backfill whose second half comes 50 hours after its first (a weekend in
     * a trading history, a device off for two days), with max-future-ms one hour. The jump is the
     * whole stream's, not one bad clock: every event must be counted in its window, none rejected
     * or late. Before, every event after the gap was rejected (its watermark never moved).
     */
    @Test
    void when_theWholeStreamJumpsAheadByMoreThanMaxFuture_then_itIsFollowed() {
        final long ip = 0x0a000001L;
        final Map<String, Long> expected = new HashMap<>();
        try (SchemaLog log = openLog(1)) {
            long sequence = 0;
            for (final long start : new long[] {0, 50 * HOUR}) {
                for (long t = start; t < start + HOUR; t += 1_000) {
                    request(log, 0, ip, t, sequence++);
                    expected.merge(IpTrafficJob.windowKey(ip, t - t % 60_000), 1L, Long::sum);
                }
            }
            log.appendEndOfStream();
        }
        startMember();
        final IpTrafficJob job = new IpTrafficJob(new WindowPolicy(WindowDefinition.tumbling(60_000), 0, 0, HOUR, 0), 3.0, 100, 3);
        final Job running = Jobs.submit(member.getJet(), job, JobOptions.of(dir).withSnapshotInterval(200));

        await().atMost(Duration.ofSeconds(60)).until(() -> counts(job).size() >= expected.size()
                || !member.getMap(job.rejectedMap()).isEmpty() || !member.getMap(job.lateMap()).isEmpty());
        assertThat(member.getMap(job.rejectedMap()).size()).as("events rejected").isZero();
        assertThat(member.getMap(job.lateMap()).size()).as("events made late").isZero();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(counts(job)).isEqualTo(expected));
        assertThat(expected).hasSize(120);
        running.cancel();
    }

    /**
     * Design of this test: the first event of a partition carries a clock ten years ahead of the
     * wall clock; there is no watermark yet to compare it with. It must be rejected, not become the
     * watermark that makes every later event late.
     */
    @Test
    void when_aPartitionsFirstEventIsFarAheadOfTheWallClock_then_itIsRejectedAndLaterEventsCount() {
        final long ip = 0x0a000001L;
        try (SchemaLog log = openLog(1)) {
            request(log, 0, ip, System.currentTimeMillis() + 10 * 365 * 24 * HOUR, 0);
            for (int i = 1; i < 21; i++) {
                request(log, 0, ip, 60_000 + i * 100L, i);
            }
            log.appendEndOfStream();
        }
        startMember();
        final IpTrafficJob job = new IpTrafficJob(new WindowPolicy(WindowDefinition.tumbling(60_000), 0, 0, HOUR, 0), 3.0, 100, 3);
        final Job running = Jobs.submit(member.getJet(), job, JobOptions.of(dir).withSnapshotInterval(200));

        await().atMost(Duration.ofSeconds(60)).until(() -> member.getMap(job.stateMap()).size() == 1
                || !member.getMap(job.lateMap()).isEmpty());
        assertThat(member.getMap(job.lateMap()).size()).as("events made late by the bad clock").isZero();
        assertThat(counts(job)).isEqualTo(Map.of(IpTrafficJob.windowKey(ip, 60_000), 20L));
        await().atMost(Duration.ofSeconds(30)).until(() -> member.getMap(job.rejectedMap()).size() == 1);
        assertThat(member.<String, RejectedRecord>getMap(job.rejectedMap()).values()).singleElement()
                .extracting(RejectedRecord::reason).asString().contains("ahead of the wall clock");
        running.cancel();
    }

    /**
     * Design of this test: a historical stream (event times of 1970) is loaded in two parts with a
     * pause longer than the idle timeout between them — a whole-cluster restart, or two loads some
     * minutes apart. Nothing says the data's clock moved during the pause: the second part must be
     * on time, every window counted. Before, the idle heartbeat moved the watermark to the wall
     * clock (today) and all of the second part was late.
     */
    @Test
    void when_aHistoricalStreamPausesLongerThanTheIdleTimeout_then_itsNextEventsAreOnTime() throws Exception {
        final long ip = 0x0a000001L;
        final Map<String, Long> expected = new HashMap<>();
        long sequence = 0;
        try (SchemaLog log = openLog(1)) {
            for (long t = 0; t < 300_000; t += 1_000) {
                request(log, 0, ip, t, sequence++);
                expected.merge(IpTrafficJob.windowKey(ip, t - t % 60_000), 1L, Long::sum);
            }
        }
        startMember();
        final IpTrafficJob job = new IpTrafficJob(new WindowPolicy(WindowDefinition.tumbling(60_000), 0, 0, HOUR, 300), 3.0, 100, 3);
        final Job running = Jobs.submit(member.getJet(), job, JobOptions.of(dir).withSnapshotInterval(200));
        await().atMost(Duration.ofSeconds(60)).until(() -> counts(job).size() == 4); // the fifth window waits for later events
        Thread.sleep(2_000); // several idle timeouts without a record

        try (SchemaLog log = openLog(1)) {
            for (long t = 300_000; t < 600_000; t += 1_000) {
                request(log, 0, ip, t, sequence++);
                expected.merge(IpTrafficJob.windowKey(ip, t - t % 60_000), 1L, Long::sum);
            }
            log.appendEndOfStream();
        }
        await().atMost(Duration.ofSeconds(60)).until(() -> counts(job).size() >= expected.size()
                || !member.getMap(job.lateMap()).isEmpty());
        assertThat(member.getMap(job.lateMap()).size()).as("events of the second part made late").isZero();
        await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(counts(job)).isEqualTo(expected));
        running.cancel();
    }

    /**
     * Design of this test: a live stream — event times from the wall clock, appended while the job
     * runs — in two partitions, one stopping after 1.5 s, the other after 3 s, and then nothing (no
     * end of stream). Without idle handling the last window of each stays open forever. With a
     * 500 ms idle timeout every window must be emitted with its full count, and the heartbeats that
     * moved the watermarks must be in the log (so a replay decides the same).
     */
    @Test
    void when_liveStreamPartitionsFallIdle_then_theirLastWindowsClose() throws Exception {
        final long ipA = 0x0a000001L;
        final long ipB = 0x0a000002L;
        final Map<String, Long> expected = new HashMap<>();
        openLog(2).close();
        startMember();
        final IpTrafficJob job = new IpTrafficJob(new WindowPolicy(WindowDefinition.tumbling(500), 0, 0, HOUR, 500), 3.0, 100, 3);
        final Job running = Jobs.submit(member.getJet(), job, JobOptions.of(dir).withSnapshotInterval(200));
        await().atMost(Duration.ofSeconds(30)).until(() -> running.getStatus() == JobStatus.RUNNING);
        try (SchemaLog log = openLog(2)) {
            final long start = System.currentTimeMillis();
            long sequence = 0;
            for (long now = start; now < start + 3_000; now = System.currentTimeMillis()) {
                request(log, 0, ipA, now, sequence++);
                expected.merge(IpTrafficJob.windowKey(ipA, now - now % 500), 1L, Long::sum);
                if (now < start + 1_500) {
                    request(log, 1, ipB, now, sequence++);
                    expected.merge(IpTrafficJob.windowKey(ipB, now - now % 500), 1L, Long::sum);
                }
                Thread.sleep(20);
            }
        }

        await().atMost(Duration.ofSeconds(60)).untilAsserted(() -> assertThat(counts(job)).isEqualTo(expected));
        assertThat(expected).hasSizeGreaterThanOrEqualTo(9);
        running.cancel();
        try (SchemaLog log = openLog(2)) {
            for (int p = 0; p < 2; p++) {
                assertThat(heartbeats(log, p)).as("heartbeats in partition " + p).isNotEmpty();
            }
        }
    }

    private Map<String, Long> counts(final IpTrafficJob job) {
        final Map<String, Long> counts = new HashMap<>();
        member.<String, IpWindowCount>getMap(job.stateMap()).forEach((key, window) -> counts.put(key, window.count()));
        return counts;
    }

    private static List<Long> heartbeats(final SchemaLog log, final int partition) {
        final List<Long> times = new ArrayList<>();
        try (PartitionReader reader = log.reader(partition, PartitionReader.START)) {
            int length;
            while ((length = reader.next()) >= 0) {
                if (length == SchemaLayout.CONTROL_LENGTH && reader.buffer().getByte(0) == SchemaLayout.KIND_HEARTBEAT) {
                    times.add(SchemaLog.controlTime(reader.buffer(), 0));
                }
            }
        }
        return times;
    }
}
