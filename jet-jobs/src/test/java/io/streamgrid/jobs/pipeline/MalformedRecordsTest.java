package io.streamgrid.jobs.pipeline;

import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.JobStatus;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.event.EventRecord;
import io.streamgrid.jobs.event.SensorKind;
import io.streamgrid.jobs.ingest.IngestLog;
import io.streamgrid.jobs.usecase.IpTrafficJob;
import io.streamgrid.jobs.usecase.IpWindowCount;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.jobs.window.WindowPolicy;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Design of this test: an ingest log holds valid requests with four bad records among them — a
 * truncated record, an unknown type code, an HTTP status out of range, and a sensor reading in a
 * log that ip-traffic reads. The job must put each bad record in {@code rejected.ip-traffic} with
 * its reason and keep running: the valid requests around them are all counted.
 */
class MalformedRecordsTest extends EmbeddedMemberTest {
    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void when_logHoldsMalformedRecords_then_theyAreRejectedWithReasonsAndTheJobKeepsCounting() {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[EventRecord.LENGTH]);
        final EventRecord record = new EventRecord().wrapForWrite(buffer, 0);
        final int ip = 0x0A000001;
        try (IngestLog log = IngestLog.open(dir, 1)) {
            for (int i = 0; i < 10; i++) {
                log.append(record.request(1_000 + i, i, ip, 0, 100, 200));
            }
            log.append(0, buffer, 0, 20);                                   // truncated
            record.request(1_100, 10, ip, 0, 100, 200);
            buffer.putByte(0, (byte) 42);
            log.append(0, buffer, 0, EventRecord.LENGTH);                    // unknown type code
            log.append(record.request(1_200, 11, ip, 0, 100, 999));          // status out of range
            log.append(record.sensor(1_300, 12, ip, SensorKind.VIBRATION, 1.0)); // wrong type for this job
            for (int i = 13; i < 23; i++) {
                log.append(record.request(1_000 + i, i, ip, 0, 100, 200));
            }
            log.appendEndOfStream(23);
        }

        startMember();
        final IpTrafficJob job = new IpTrafficJob(new WindowPolicy(WindowDefinition.tumbling(60_000), 0, 0), 3.0, 100, 3);
        final Job running = WindowedJobs.submit(member.getJet(), job, JobOptions.of(dir).withSnapshotInterval(200));

        await().atMost(Duration.ofSeconds(60)).until(() -> member.getMap(job.stateMap()).size() == 1
                && member.getMap(job.rejectedMap()).size() == 4);
        final IpWindowCount window = member.<String, IpWindowCount>getMap(job.stateMap()).get(IpTrafficJob.windowKey(ip, 0));
        assertThat(window.count()).isEqualTo(20);
        final Map<Long, String> reasons = member.<String, RejectedRecord>getMap(job.rejectedMap()).values().stream()
                .collect(Collectors.toMap(RejectedRecord::logIndex, RejectedRecord::reason));
        assertThat(reasons.values()).containsExactlyInAnyOrder(
                "record length 20 bytes, expected 48",
                "unknown event type code 42",
                "HTTP status out of range: 999",
                "event type SENSOR, but job ip-traffic reads REQUEST");
        assertThat(running.getStatus()).isEqualTo(JobStatus.RUNNING);
        running.cancel();
    }
}
