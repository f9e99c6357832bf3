package io.streamgrid.jobs.pipeline;

import io.streamgrid.jobs.Jobs;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.JobStatus;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.event.BuiltInEvents;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.event.SensorKind;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.usecase.IpTrafficJob;
import io.streamgrid.jobs.usecase.IpWindowCount;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.jobs.window.WindowPolicy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.ByteOrder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Design of this test: the request log holds valid requests with four bad records among them — a
 * truncated record, an unknown record kind, a negative event time, and a sensor reading (a record
 * of another schema, shorter than a request) in the log that ip-traffic reads. The job must put each bad record in {@code rejected.ip-traffic} with
 * its reason and keep running: the valid requests around them are all counted.
 */
class MalformedRecordsTest extends EmbeddedMemberTest {
    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void when_logHoldsMalformedRecords_then_theyAreRejectedWithReasonsAndTheJobKeepsCounting() {
        final BuiltInEvents events = new BuiltInEvents();
        final long ip = 0x0A000001L;
        try (SchemaLog log = SchemaLog.open(SchemaLog.directoryOf(dir, "request"), EventType.REQUEST.schema(), 1)) {
            for (int i = 0; i < 10; i++) {
                log.append(events.request(1_000 + i, i, ip, 0, 100, 200));
            }
            SchemaRecord record = events.request(1_100, 10, ip, 0, 100, 200);
            log.append(0, record.buffer(), record.offset(), 16);                       // truncated
            final UnsafeBuffer buffer = (UnsafeBuffer) record.buffer();
            buffer.putByte(record.offset(), (byte) 42);
            log.append(0, buffer, record.offset(), record.length());                   // unknown record kind
            record = events.request(1_200, 11, ip, 0, 100, 200);
            buffer.putLong(record.offset() + record.layout().offset(1), -5, ByteOrder.LITTLE_ENDIAN);
            log.append(0, buffer, record.offset(), record.length());                   // negative event time
            record = events.sensor(1_300, 12, ip, SensorKind.VIBRATION, 1.0);
            log.append(0, buffer, record.offset(), record.length());                   // another schema's record
            for (int i = 13; i < 23; i++) {
                log.append(events.request(1_000 + i, i, ip, 0, 100, 200));
            }
            log.appendEndOfStream();
        }

        startMember();
        final IpTrafficJob job = new IpTrafficJob(new WindowPolicy(WindowDefinition.tumbling(60_000), 0, 0), 3.0, 100, 3);
        final Job running = Jobs.submit(member.getJet(), job, JobOptions.of(dir).withSnapshotInterval(200));

        await().atMost(Duration.ofSeconds(60)).until(() -> member.getMap(job.stateMap()).size() == 1
                && member.getMap(job.rejectedMap()).size() == 4);
        final IpWindowCount window = member.<String, IpWindowCount>getMap(job.stateMap()).get(IpTrafficJob.windowKey(ip, 0));
        assertThat(window.count()).isEqualTo(20);
        final Map<Long, String> reasons = member.<String, RejectedRecord>getMap(job.rejectedMap()).values().stream()
                .collect(Collectors.toMap(RejectedRecord::logIndex, RejectedRecord::reason));
        assertThat(reasons.values()).containsExactlyInAnyOrder(
                "record of 16 bytes ends before its key or event time",
                "not an event record of schema request (kind 42)",
                "field ts is a negative timestamp",
                "record of 38 bytes, but version 1 of schema request is 44 bytes");
        assertThat(running.getStatus()).isEqualTo(JobStatus.RUNNING);
        running.cancel();
    }
}
