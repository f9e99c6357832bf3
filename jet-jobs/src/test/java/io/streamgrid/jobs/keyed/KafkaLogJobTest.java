package io.streamgrid.jobs.keyed;

import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.JobStatus;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.ingest.KafkaLogs;
import io.streamgrid.jobs.kafka.KafkaBroker;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.pipeline.impl.KeyedDag;
import io.streamgrid.jobs.schema.SchemaLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * The same runtime over Kafka (a real broker, {@link KafkaBroker}): {@link EmitTest}'s emitting
 * pipeline with both logs as Kafka topics. 60,000 amounts over 300 accounts are produced to the
 * topic of {@code amount} while the doubler runs with a 200 ms snapshot interval; it throws once
 * after 25,000 emitted events, is suspended, and resumes from its last snapshot — its Kafka offsets
 * — emitting part of the stream again into {@code doubled}; the totals job reads that topic. Every
 * account's count and sum must equal the oracle's: nothing lost, nothing counted twice. A second
 * job cannot emit into the doubler's topic.
 */
class KafkaLogJobTest extends EmbeddedMemberTest {
    private static final int PARTITIONS = 4;
    private static final int ACCOUNTS = 300;

    @Test
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void when_anEmittingJobOverKafkaFailsAndIsRestored_then_readersSeeEveryEventOnce() throws Exception {
        DoublingJobs.EMITTED.set(0);
        DoublingJobs.FAIL_AFTER.set(25_000);
        final int events = 60_000;
        try (KafkaBroker broker = KafkaBroker.start(dir.resolve("kafka"), System.out::println)) {
            startMember();
            final KafkaLogs logs = new KafkaLogs(broker.bootstrapServers(), "sg.", (short) 1);
            final JobOptions options = JobOptions.of(dir).withSnapshotInterval(200);
            try (EventLog amounts = logs.openOrCreate(DoublingJobs.AMOUNT, DoublingJobs.AMOUNT.name(), PARTITIONS)) {
                final Job doubler = member.getJet().newJob(KeyedDag.of(DoublingJobs.doubler(), logs, 1, null, null),
                        options.jobConfig("doubler"));
                await().atMost(Duration.ofMinutes(1)).ignoreExceptions().until(() -> {
                    logs.open(DoublingJobs.DOUBLED, DoublingJobs.DOUBLED.name()).close(); // the doubler has created its output topic
                    return true;
                });
                final Job totalsJob = member.getJet().newJob(KeyedDag.of(DoublingJobs.totals(), logs, 1, null, null),
                        options.jobConfig("doubled-totals"));
                final Map<Long, String> expected = DoublingJobs.appendAmounts(amounts, events, ACCOUNTS, i -> {
                    if (i % 5_000 == 4_999) {
                        amounts.flush();
                        Thread.sleep(150); // several snapshots while the stream arrives
                    }
                });
                await().atMost(Duration.ofMinutes(2)).until(() -> doubler.getStatus() == JobStatus.SUSPENDED);
                doubler.resume();
                JobTestSupport.awaitEqual(expected, () -> Map.copyOf(member.<Long, String>getMap(DoublingJobs.TOTALS)),
                        Duration.ofMinutes(3), totalsJob);
                final long raw = emitted(logs);
                System.out.println(events + " expected, " + events + " found, 0 lost, 0 duplicated over Kafka (topic sg.doubled holds "
                        + raw + " emitted events: " + (raw - events) + " emitted again after the restore, dropped by the reader)");
                assertThat(raw).as("the restored job emitted part of the stream again").isGreaterThan(events);
                assertThat(member.getMap(DoublingJobs.totals().rejectedMap()).size()).isZero();
                try (EventLog doubled = logs.open(DoublingJobs.DOUBLED, DoublingJobs.DOUBLED.name())) {
                    doubled.claimEmitter("doubler"); // the emitting job again (a restart): fine
                    assertThatThrownBy(() -> doubled.claimEmitter("tripler")).hasMessageContaining("job doubler emits into it");
                }
                doubler.cancel();
                totalsJob.cancel();
            }
        }
    }

    /** Emitted events in the topic of {@code doubled}: read until nothing more comes for two seconds. */
    private static long emitted(final KafkaLogs logs) {
        final long[] count = new long[1];
        try (EventLog log = logs.open(DoublingJobs.DOUBLED, DoublingJobs.DOUBLED.name())) {
            JobTestSupport.readUntilIdle(log, Duration.ofSeconds(2), (buffer, length) -> {
                if (length > 0 && buffer.getByte(0) == SchemaLayout.KIND_EMITTED) {
                    count[0]++;
                }
            });
        }
        return count[0];
    }
}
