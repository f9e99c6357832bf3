package io.streamgrid.examples.federated;

import com.hazelcast.jet.Job;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The aggregator's rules, one event at a time on one member: what it takes, what it refuses and why, how rounds close. */
class AggregatorJobTest extends EmbeddedMemberTest {
    private static final FederatedModel MODEL = new FederatedModel("unit", 3, 4, 3, 2, 1, 0.1, 1.0, 0, 5);

    /**
     * Design: round 1's cohort is three of the four devices (a, b, c; u not chosen). Into the log, in
     * this order: the start; an update of u; one of a for round 2; one of a above the clip norm; one
     * of a with two numbers instead of three; a's good update (10 examples); a's second; b's good
     * update (30 examples) — the quorum of 2: round 1 closes; c's update for round 1, now late; the
     * stale deadline of round 1; round 2's deadline, with no update. The global model must be the
     * example-weighted mean of a's and b's deltas, and each refusal recorded with its reason.
     */
    @Test
    void when_updatesAreUnchosenNotOpenUnclippedMalformedRepeatedOrLate_then_theyAreRefusedAndTheRoundTakesTheRest() throws Exception {
        final long[] cohort = AggregatorJob.cohort(MODEL, 1);
        final long a = cohort[0];
        final long b = cohort[1];
        final long c = cohort[2];
        final long u = java.util.stream.LongStream.range(0, 4).filter(d -> Arrays.binarySearch(cohort, d) < 0).findFirst().orElseThrow();
        final double[] deltaA = {0.1, 0.2, 0.3};
        final double[] deltaB = {-0.1, 0, 0.1};
        startMember();
        final JobOptions options = JobOptions.of(dir.resolve("ingest")).withSnapshotInterval(100).withLocalParallelism(1);
        try (SchemaLog log = SchemaLog.open(Jobs.logDirectory(new AggregatorJob(MODEL).job(), options), FederatedEvents.UPDATE, FederatedEvents.PARTITIONS)) {
            final Events events = new Events(log);
            events.append("START", -1, 0, 0, "");
            events.append("UPDATE", u, 1, 10, Vectors.encode(deltaA));
            events.append("UPDATE", a, 2, 10, Vectors.encode(deltaA));
            events.append("UPDATE", a, 1, 10, Vectors.encode(new double[]{1, 1, 0}));
            events.append("UPDATE", a, 1, 10, Vectors.encode(new double[]{0.1, 0.2}));
            events.append("UPDATE", a, 1, 10, Vectors.encode(deltaA));
            events.append("UPDATE", a, 1, 10, Vectors.encode(deltaB));
            events.append("UPDATE", b, 1, 30, Vectors.encode(deltaB));
            events.append("UPDATE", c, 1, 20, Vectors.encode(deltaB));
            events.append("DEADLINE", -1, 1, 0, "");
            events.append("DEADLINE", -1, 2, 0, "");
            final Job job = Jobs.submit(member.getJet(), new AggregatorJob(MODEL).job(), options);
            final Map<Long, RoundRecord> rounds = member.getMap(MODEL.roundsMap());
            final Map<String, String> refused = member.getMap(MODEL.refusedMap());
            await().atMost(Duration.ofMinutes(1)).until(() -> rounds.size() == 2 && refused.size() >= 6);
            Thread.sleep(300); // nothing more may come
            job.cancel();

            assertThat(refused).hasSize(6);
            assertThat(refused.get(u + "/1#1")).contains("device " + u + " was not chosen for round 1");
            assertThat(refused.get(a + "/2#2")).contains("round 2 is not open (round 1 is)");
            assertThat(refused.get(a + "/1#3")).contains("above the clip norm 1.0");
            assertThat(refused.get(a + "/1#4")).contains("malformed delta");
            assertThat(refused.get(a + "/1#5")).contains("a second update of device " + a + " for round 1");
            assertThat(refused.get(c + "/1#6")).contains("late: round 1 closed (round 2 is open)");
            final RoundRecord first = rounds.get(1L);
            assertThat(first.devices()).containsExactly(a, b);
            assertThat(first.samples()).containsExactly(10, 30);
            assertThat(first.closedBy()).isEqualTo("QUORUM");
            assertThat(first.refused()).isEqualTo(5); // u's, round 2's, the unclipped, the malformed, the second
            final RoundRecord second = rounds.get(2L);
            assertThat(second.devices()).isEmpty();
            assertThat(second.closedBy()).isEqualTo("DEADLINE");
            assertThat(second.refused()).isEqualTo(1); // c's, late
            final GlobalModel global = (GlobalModel) member.getMap(MODEL.globalMap()).get(MODEL.name());
            assertThat(global.round()).isEqualTo(3);
            final double[] expected = new double[3];
            for (int d = 0; d < 3; d++) {
                expected[d] = (0 + 10 * deltaA[d] + 30 * deltaB[d]) / 40;
            }
            assertThat(global.weights()).containsExactly(expected);
            assertThat(global.cohort()).containsExactly(AggregatorJob.cohort(MODEL, 3));
        }
    }

    @Test
    void when_aModelIsBuiltWithImpossibleSettings_then_itSaysWhich() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new FederatedModel("m", 8, 10, 6, 7, 1, 0.1, 1, 0, 1))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("a quorum of 1 to those");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> ModelArgument.parse("m,8,10"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(ModelArgument.FORMAT);
        assertThat(ModelArgument.parse(ModelArgument.format(MODEL))).isEqualTo(MODEL);
        assertThat(AggregatorJob.cohort(MODEL, 7)).hasSize(3).doesNotHaveDuplicates().isSorted().containsExactly(AggregatorJob.cohort(MODEL, 7));
    }

    /** Appends the federation's events to the log as the publish API would, numbered. */
    private static final class Events {
        private final SchemaLog log;
        private final SchemaRecord record = new SchemaRecord(FederatedEvents.UPDATE.layout());
        private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[FederatedEvents.UPDATE.layout().length()]);
        private long sequence;

        Events(final SchemaLog log) {
            this.log = log;
        }

        void append(final String kind, final long device, final long round, final long samples, final String delta) {
            sequence++;
            log.append(record.wrapForWrite(buffer, 0).sequence(sequence).set(FederatedEvents.UPDATE.stringField("model"), MODEL.name())
                    .setTimestamp(1, 1_700_000_000_000L + sequence).set(FederatedEvents.KIND, kind).set(FederatedEvents.DEVICE, device)
                    .set(FederatedEvents.ROUND, round).set(FederatedEvents.SAMPLES, samples).set(FederatedEvents.DELTA, delta));
        }
    }
}
