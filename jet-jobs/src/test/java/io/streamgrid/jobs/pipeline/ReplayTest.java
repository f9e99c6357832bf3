package io.streamgrid.jobs.pipeline;

import io.streamgrid.jobs.Jobs;
import com.hazelcast.jet.Job;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.event.BuiltInEvents;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.PartitionReader;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.usecase.IpTrafficJob;
import io.streamgrid.jobs.usecase.IpWindowCount;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.jobs.window.WindowPolicy;
import io.streamgrid.sink.CqlType;
import io.streamgrid.sink.TableSpec;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A {@link Replay} writes maps of its own and leaves the live job's maps and the logs alone. (That a
 * replay from the start reproduces the live results of a whole use case is {@code KappaReplayTest}.)
 */
class ReplayTest extends EmbeddedMemberTest {
    private static final long MINUTE = 60_000;
    private static final long IP = 0x0a000001L;
    private final BuiltInEvents events = new BuiltInEvents();

    private static IpTrafficJob ipTraffic(final long idleTimeoutMs) {
        return new IpTrafficJob(new WindowPolicy(WindowDefinition.tumbling(MINUTE), 0, 0, 24 * 60 * MINUTE, idleTimeoutMs), 3.0, 100, 3);
    }

    private SchemaLog openLog(final int partitions) {
        return SchemaLog.open(SchemaLog.directoryOf(dir, EventType.REQUEST.schema().name()), EventType.REQUEST.schema(), partitions);
    }

    /** Requests of one IP, {@code perMinute} in each of minutes 1..{@code minutes}, then (optionally) the end of stream. */
    private void appendMinutes(final SchemaLog log, final int minutes, final int perMinute) {
        appendMinutes(log, 0, MINUTE, minutes, perMinute);
    }

    /** As {@link #appendMinutes(SchemaLog, int, int)}, from {@code base} on and with "minutes" of {@code minute} ms. */
    private void appendMinutes(final SchemaLog log, final long base, final long minute, final int minutes, final int perMinute) {
        long sequence = 0;
        for (int m = 1; m <= minutes; m++) {
            for (int i = 0; i < perMinute; i++) {
                final SchemaRecord record = events.request(base + m * minute + i * 10L, sequence++, IP, 0, 100, 200);
                log.append(0, record.buffer(), record.offset(), record.length());
            }
        }
    }

    @Test
    void when_aWindowedJobIsReplayedFromATime_then_itsOwnMapsHoldTheWindowsFromThatTimeAndTheLiveMapsAreUntouched() {
        try (SchemaLog log = openLog(1)) {
            appendMinutes(log, 6, 20);
            final byte[] notAnEvent = new byte[5];
            log.append(0, new UnsafeBuffer(notAnEvent), 0, notAnEvent.length);
            log.appendEndOfStream();
        }
        startMember();
        final IpTrafficJob job = ipTraffic(0);
        final JobOptions live = JobOptions.of(dir).withSnapshotInterval(200);
        final Job liveJob = Jobs.submit(member.getJet(), job, live);
        await().atMost(Duration.ofMinutes(1)).until(() -> member.getMap(job.stateMap()).size() == 6);
        final Map<String, IpWindowCount> all = Map.copyOf(member.<String, IpWindowCount>getMap(job.stateMap()));
        assertThat(all.values()).as("live windows").extracting(IpWindowCount::count).containsOnly(20L);

        final Replay replay = Replay.into("from_minute_4").from(4 * MINUTE);
        final Job replayJob = Jobs.submit(member.getJet(), job, live.withReplay(replay));
        assertThat(replayJob.getName()).isEqualTo("ip-traffic.from_minute_4");
        final Map<String, IpWindowCount> fromMinute4 = new HashMap<>(all);
        fromMinute4.values().removeIf(window -> window.windowStart() < 4 * MINUTE);
        assertThat(fromMinute4).hasSize(3);
        JobTestSupport.awaitEqual(fromMinute4, () -> Map.copyOf(member.<String, IpWindowCount>getMap(replay.mapName(job.stateMap()))),
                Duration.ofMinutes(1), replayJob);
        await().atMost(Duration.ofSeconds(30)).until(() -> member.getMap(replay.mapName(job.rejectedMap())).size() == 1);
        System.out.println("replay from minute 4: " + JobTestSupport.diff(fromMinute4,
                Map.copyOf(member.<String, IpWindowCount>getMap(replay.mapName(job.stateMap())))));

        assertThat(Map.copyOf(member.<String, IpWindowCount>getMap(job.stateMap()))).as("the live map after the replay").isEqualTo(all);
        assertThat(member.getMap(job.rejectedMap()).size()).as("the live rejected map after the replay").isEqualTo(1);
        assertThat(member.getMap(replay.mapName(job.lateMap())).size()).isZero();
        replayJob.cancel();
        liveJob.cancel();
    }

    /**
     * The stream follows the wall clock (an idle heartbeat moves only such a stream's clock): three
     * one-second "minutes", the last one the current second.
     */
    @Test
    void when_aReplayIdlesAtTheEndOfTheLog_then_itAppendsNoHeartbeatButTheLiveJobDoes() {
        final int appended = 3 * 20;
        final long second = 1_000;
        final long now = System.currentTimeMillis();
        try (SchemaLog log = openLog(1)) {
            // no end of stream: the partition idles after its last record
            appendMinutes(log, now - now % second - 3 * second, second, 3, 20);
        }
        startMember();
        final IpTrafficJob job = new IpTrafficJob(new WindowPolicy(WindowDefinition.tumbling(second), 0, 0, 24 * 60 * MINUTE, 200),
                3.0, 100, 3);
        final JobOptions options = JobOptions.of(dir).withSnapshotInterval(200);
        final Replay replay = Replay.into("idle");
        final Job replayJob = Jobs.submit(member.getJet(), job, options.withReplay(replay));
        // Minutes 1 and 2 close on minute 3's events; minute 3 would close only on a heartbeat.
        await().atMost(Duration.ofMinutes(1)).until(() -> member.getMap(replay.mapName(job.stateMap())).size() == 2);
        await().pollDelay(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(3)).until(() -> true); // ten idle timeouts
        assertThat(recordsInLog()).as("records in the log after the replay idled").isEqualTo(appended);
        assertThat(member.getMap(replay.mapName(job.stateMap())).size()).as("windows the replay closed").isEqualTo(2);

        final Job liveJob = Jobs.submit(member.getJet(), job, options);
        await().atMost(Duration.ofSeconds(30)).until(() -> recordsInLog() > appended);
        // The live job's heartbeat is in the log: both close minute 3 on it, the replay included.
        await().atMost(Duration.ofSeconds(30)).until(() -> member.getMap(job.stateMap()).size() == 3
                && member.getMap(replay.mapName(job.stateMap())).size() == 3);
        assertThat(Map.copyOf(member.getMap(replay.mapName(job.stateMap())))).isEqualTo(Map.copyOf(member.getMap(job.stateMap())));
        replayJob.cancel();
        liveJob.cancel();
    }

    private long recordsInLog() {
        try (SchemaLog log = SchemaLog.openExisting(SchemaLog.directoryOf(dir, EventType.REQUEST.schema().name()),
                EventType.REQUEST.schema()); PartitionReader reader = log.reader(0, PartitionReader.START)) {
            long records = 0;
            while (reader.next() >= 0) {
                records++;
            }
            return records;
        }
    }

    @Test
    void when_aSuffixIsNotALowerCaseName_then_itIsRefusedWithTheRule() {
        for (final String bad : List.of("", "V2", "2nd", "a-b", "a.b", "x".repeat(25))) {
            assertThatThrownBy(() -> Replay.into(bad)).as(bad).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("a lower-case letter, then lower-case letters, digits or '_', at most 24");
        }
        assertThatThrownBy(() -> Replay.into(null)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void when_aReplayNamesItsOutputs_then_mapsJobsAndTablesCarryTheSuffix() {
        final Replay replay = Replay.into("v2");
        assertThat(replay.mapName("state.user-activity")).isEqualTo("state.user-activity.v2");
        assertThat(replay.jobName("user-activity")).isEqualTo("user-activity.v2");
        assertThat(JobOptions.of(dir).withReplay(replay).jobConfig("user-activity").getName()).isEqualTo("user-activity.v2");
        assertThat(JobOptions.of(dir).jobConfig("user-activity").getName()).isEqualTo("user-activity");
        final TableSpec table = new TableSpec("sg", "user_activity", List.of(new TableSpec.Column("user", CqlType.TEXT),
                new TableSpec.Column("requests", CqlType.BIGINT)), List.of("user"), List.of());
        assertThat(replay.table(table)).isEqualTo(new TableSpec("sg", "user_activity_v2", table.columns(), List.of("user"), List.of()));
        assertThatThrownBy(() -> Replay.into("x".repeat(24)).table(new TableSpec("sg", "t".repeat(30), table.columns(),
                List.of("user"), List.of()))).hasMessageContaining("longer than 48 characters");
    }
}
