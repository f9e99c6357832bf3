package io.streamgrid.jobs.keyed;

import io.streamgrid.jobs.Jobs;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.JobStatus;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.pipeline.LateEvent;
import org.agrona.collections.Long2LongHashMap;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Map;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Design of this test: 60,000 visits of 2,000 users over 4 partitions, out of order by up to the
 * allowed disorder, 2 % of them up to four times the allowed lateness behind (so some are
 * corrections and some are dropped). The keyed job counts visits per user and 10-second bucket with
 * event-time timers; every count in its map, and the set of visits in its late side output, must
 * equal the brute-force oracle's. The job restarts twice mid-stream from its snapshots.
 */
class KeyedOperatorOracleTest extends EmbeddedMemberTest {
    private static final long DISORDER = 2_000;
    private static final long LATENESS = 5_000;

    @Test
    void when_visitsCountedPerBucketWithTimers_then_countsAndLateEventsEqualOracle() throws Exception {
        final VisitStream stream = new VisitStream(7, 60_000, 2_000, 4, DISORDER, LATENESS, 0.02);
        final VisitStream.Expected expected = stream.expected(DISORDER, LATENESS);
        final KeyedJob<Long2LongHashMap> job = BucketCounts.job("visit-buckets", DISORDER, LATENESS);
        final JobOptions options = JobOptions.of(dir).withSnapshotInterval(100).withLocalParallelism(2);
        startMember();
        try (SchemaLog log = SchemaLog.open(Jobs.logDirectory(job, options), BucketCounts.VISIT, 4)) {
            stream.append(log, 0, 20_000);
            final Job running = Jobs.submit(member.getJet(), job, options);
            for (int third = 1; third < 3; third++) {
                await().atMost(Duration.ofMinutes(1)).until(() -> running.getStatus() == JobStatus.RUNNING);
                Thread.sleep(300);
                running.restart();
                stream.append(log, third * 20_000, (third + 1) * 20_000);
            }
            log.appendEndOfStream();
            JobTestSupport.awaitEqual(expected.counts(), () -> Map.copyOf(member.<String, Long>getMap(BucketCounts.MAP)),
                    Duration.ofMinutes(2), running);
            final Map<String, Long> counts = member.getMap(BucketCounts.MAP);
            final TreeSet<Long> late = member.<String, LateEvent>getMap(job.lateMap()).values().stream()
                    .map(LateEvent::sequence).collect(Collectors.toCollection(TreeSet::new));
            System.out.println(expected.counts().size() + " buckets expected, " + counts.size() + " found; "
                    + expected.late().size() + " visits too late expected, " + late.size() + " found");
            assertThat(expected.late()).as("the stream has visits beyond the lateness").isNotEmpty();
            assertThat(late).isEqualTo(expected.late());
            assertThat(member.getMap(job.rejectedMap()).size()).isZero();
            running.cancel();
        }
    }
}
