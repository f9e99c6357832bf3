package io.streamgrid.jobs.keyed;

import io.streamgrid.jobs.Jobs;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.JobStatus;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;

import static io.streamgrid.jobs.keyed.DoublingJobs.AMOUNT;
import static io.streamgrid.jobs.keyed.DoublingJobs.DOUBLED;
import static io.streamgrid.jobs.keyed.DoublingJobs.EMITTED;
import static io.streamgrid.jobs.keyed.DoublingJobs.FAIL_AFTER;
import static io.streamgrid.jobs.keyed.DoublingJobs.START;
import static io.streamgrid.jobs.keyed.DoublingJobs.TOTALS;
import static io.streamgrid.jobs.keyed.DoublingJobs.TWO_LONGS;
import static io.streamgrid.jobs.keyed.DoublingJobs.doubler;
import static io.streamgrid.jobs.keyed.DoublingJobs.totals;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Events a keyed job emits into another schema's log ({@link KeyedContext#emit}) reach that log's
 * readers exactly once, also when the emitting job fails and is restored from an older snapshot
 * (it then emits again what it emitted since).
 */
class EmitTest extends EmbeddedMemberTest {
    private static final int PARTITIONS = 4;
    private static final int ACCOUNTS = 300;

    /**
     * Design of this test: 60,000 amounts over 300 accounts; the doubler runs with a 200 ms snapshot
     * interval and throws once after 25,000 emitted events, so it is restored from a snapshot older
     * than what it emitted and emits part of the stream again (the raw log shows how much). A second
     * job totals the doubled amounts per account: every account's count and sum must equal the
     * oracle's — nothing lost, nothing counted twice.
     */
    @Test
    void when_anEmittingJobFailsAndIsRestored_then_readersSeeEveryEmittedEventOnce() throws Exception {
        EMITTED.set(0);
        FAIL_AFTER.set(25_000);
        final int events = 60_000;
        final Map<Long, String> expected = new HashMap<>();
        startMember();
        try (SchemaLog amounts = SchemaLog.open(SchemaLog.directoryOf(dir, AMOUNT.name()), AMOUNT, PARTITIONS)) {
            final Job doubler = Jobs.submit(member.getJet(), doubler(), JobOptions.of(dir).withSnapshotInterval(200));
            await().atMost(Duration.ofMinutes(1)).until(() -> SchemaLog.exists(SchemaLog.directoryOf(dir, DOUBLED.name())));
            final Job totalsJob = Jobs.submit(member.getJet(), totals(), JobOptions.of(dir).withSnapshotInterval(200));
            expected.putAll(DoublingJobs.appendAmounts(amounts, events, ACCOUNTS, i -> {
                if (i % 5_000 == 4_999) {
                    Thread.sleep(150); // several snapshots while the stream arrives
                }
            }));
            await().atMost(Duration.ofMinutes(1)).until(() -> doubler.getStatus() == JobStatus.SUSPENDED);
            doubler.resume();
            JobTestSupport.awaitEqual(expected, () -> Map.copyOf(member.<Long, String>getMap(TOTALS)), Duration.ofMinutes(2),
                    totalsJob);
            final long raw = JobTestSupport.emittedIn(dir, DOUBLED);
            System.out.println(events + " expected, " + events + " found, 0 lost, 0 duplicated (the log holds " + raw
                    + " emitted events: " + (raw - events) + " emitted again after the restore, dropped by the reader)");
            assertThat(raw).as("the restored job emitted part of the stream again").isGreaterThan(events);
            assertThat(member.getMap(totals().rejectedMap()).size()).isZero();
            doubler.cancel();
            totalsJob.cancel();
        }
    }

    /**
     * Design of this test: emitted events written by hand, as two writers restored several times
     * would leave them — counts repeated and interleaved. The reading job must take each writer's
     * counts once, in the order first seen, and ignore the sequences of ordinary events.
     */
    @Test
    void when_aLogHoldsRepeatedEmittedEvents_then_aReaderTakesEachWriterAndCountOnce() throws Exception {
        startMember();
        try (SchemaLog log = SchemaLog.open(SchemaLog.directoryOf(dir, DOUBLED.name()), DOUBLED, 1)) {
            final SchemaRecord record = new SchemaRecord(DOUBLED.layout());
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[DOUBLED.layout().length()]);
            // writer 0: 1 2 3 | restored after 1: 2 3 4; writer 1: 1 2 | 1 2 3; ordinary events with repeated sequences
            final long[][] writerCount = {{0, 1}, {0, 2}, {1, 1}, {0, 3}, {0, 2}, {1, 2}, {0, 3}, {1, 1}, {0, 4}, {1, 2}, {1, 3}};
            long ts = START;
            for (final long[] wc : writerCount) {
                record.wrapForWrite(buffer, 0).sequence(wc[0] << 48 | wc[1]).setLong(0, 7).setTimestamp(1, ts++).setLong(2, 10 + wc[0]);
                buffer.putByte(0, SchemaLayout.KIND_EMITTED);
                log.append(record);
            }
            for (int i = 0; i < 3; i++) {
                log.append(record.wrapForWrite(buffer, 0).sequence(5).setLong(0, 7).setTimestamp(1, ts++).setLong(2, 100));
            }
            log.appendEndOfStream();
        }
        final Job job = Jobs.submit(member.getJet(), totals(), JobOptions.of(dir));
        // writer 0 counts 1-4 (10 each), writer 1 counts 1-3 (11 each), three ordinary events of 100
        JobTestSupport.awaitEqual(Map.of(7L, "10/" + (4 * 10 + 3 * 11 + 300)), () -> Map.copyOf(member.<Long, String>getMap(TOTALS)),
                Duration.ofMinutes(1), job);
        job.cancel();
    }

    @Test
    void when_aJobEmitsWhatItReadsOrAnUndeclaredSchema_then_itIsRefusedNamingWhy() {
        assertThatThrownBy(() -> KeyedJob.<long[]>builder("loop", AMOUNT).function(new DoublingJobs.Doubler()).state(TWO_LONGS).emits(AMOUNT).build())
                .hasMessageContaining("both reads and emits schema amount");
        assertThatThrownBy(() -> KeyedJob.<long[]>builder("twice", AMOUNT).function(new DoublingJobs.Doubler()).state(TWO_LONGS)
                .emits(DOUBLED, DOUBLED).build()).hasMessageContaining("emits a schema twice");
        assertThatThrownBy(() -> KeyedJob.<long[]>builder("dims", AMOUNT).function(new DoublingJobs.Doubler()).state(TWO_LONGS)
                .reads("models").build()).hasMessageContaining("dim.<name>");
    }

    @Test
    void when_twoJobsEmitIntoOneLog_then_theSecondIsRefused() {
        try (SchemaLog log = SchemaLog.open(SchemaLog.directoryOf(dir, DOUBLED.name()), DOUBLED, 2)) {
            log.claimEmitter("doubler");
            log.claimEmitter("doubler"); // the same job again (a restart): fine
            assertThatThrownBy(() -> log.claimEmitter("tripler")).hasMessageContaining("job doubler emits into it");
        }
    }
}
