package io.streamgrid.examples.jobs;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cluster.TestWorkDir;
import io.streamgrid.jobs.Scenario;
import io.streamgrid.examples.fraud.Feedback;
import io.streamgrid.examples.fraud.FeedbackLog;
import io.streamgrid.examples.fraud.FraudScoringJob;
import io.streamgrid.examples.fraud.ModelTrainingJob;
import io.streamgrid.examples.fraud.PaymentStream;
import io.streamgrid.examples.fraud.Payments;
import io.streamgrid.examples.fraud.TrainingStatus;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.pipeline.JobOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Design of this test: the fraud example's scoring and training jobs run exactly-once on three
 * member processes over 60,000 payments of 1,000 users (80 % labelled) appended while they run; a
 * member other than Jet's coordinator is killed with SIGKILL mid-stream. Both jobs restore from
 * their snapshots: the scoring job emits again what it had emitted since, which the trainer must
 * not learn twice. Afterwards every payment has one prediction and every label one outcome in the
 * feedback log (as a reader takes it), and the trainer's weights equal an offline SGD over exactly
 * those labels in that order — a label learnt twice or skipped would move them.
 */
class FraudExactlyOnceTest {
    private static final double RATE = 0.05;
    private static final double L2 = 0.0001;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void when_memberKilledMidStream_then_everyLabelIsLearntOnceAndWeightsEqualTheOfflineSgd(final TestInfo test) throws Exception {
        final Path workDir = TestWorkDir.of(test);
        final PaymentStream stream = new PaymentStream(47, System.currentTimeMillis(), 1_000, 60_000, 0.8, 0);
        final KeyedJob<?> scoring = new FraudScoringJob().job();
        final KeyedJob<?> training = new ModelTrainingJob(RATE, L2, 200, 50).job();
        final JobOptions options = JobOptions.of(workDir.resolve("ingest")).withSnapshotInterval(200).withLocalParallelism(2);
        final int events = stream.events().size();
        final int labels = stream.labels().size();

        try (LocalCluster cluster = LocalCluster.builder().members(3).memberHeap("512m").workDir(workDir).start();
             SchemaLog payments = SchemaLog.open(Jobs.logDirectory(scoring, options), Payments.PAYMENT, 6);
             SchemaLog outcomes = SchemaLog.open(Jobs.logDirectory(scoring, options).resolveSibling(Payments.OUTCOME.name()),
                     Payments.OUTCOME, 6)) {
            final HazelcastInstance client = cluster.newClient();
            final Job scorer = Jobs.submit(client.getJet(), scoring, options);
            final Path feedbackDir = Jobs.logDirectory(training, options);
            await().atMost(Duration.ofMinutes(1)).until(() -> SchemaLog.exists(feedbackDir));
            final Job trainer = Jobs.submit(client.getJet(), training, options);
            final Scenario.PacedWriter writer = new Scenario.PacedWriter(afterEach -> {
                for (int i = 0; i < events; i++) {
                    stream.append(payments, outcomes, i, i + 1);
                    afterEach.run();
                }
            }, events, 15);
            writer.start();
            writer.awaitAppended(events * 2 / 5);
            await().atMost(Duration.ofMinutes(1)).until(() -> client.getMap(Payments.TRAINING).containsKey(FraudScoringJob.MODEL));
            cluster.kill(Scenario.notTheCoordinator(cluster, client));
            System.out.println("killed a member at " + writer.appended.get() + " events appended");
            writer.finish();
            payments.appendEndOfStream();
            outcomes.appendEndOfStream();

            try {
                await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500)).until(() -> {
                    final TrainingStatus status = client.<String, TrainingStatus>getMap(Payments.TRAINING).get(FraudScoringJob.MODEL);
                    return status != null && status.labels() >= labels
                            && client.getMap(Payments.SCORES).size() >= stream.payments().size();
                });
            } catch (final org.awaitility.core.ConditionTimeoutException e) {
                final TrainingStatus status = client.<String, TrainingStatus>getMap(Payments.TRAINING).get(FraudScoringJob.MODEL);
                throw new AssertionError("did not finish: " + (status == null ? 0 : status.labels()) + " of " + labels + " labels learnt, "
                        + client.getMap(Payments.SCORES).size() + " of " + stream.payments().size() + " payments scored, "
                        + client.getMap(scoring.lateMap()).size() + " late, " + client.getMap(Payments.ORPHAN_OUTCOMES).size()
                        + " orphan outcomes; scoring " + scorer.getStatus() + ", training " + trainer.getStatus(), e);
            }
            Thread.sleep(2_000); // a label learnt twice would show now
            final FeedbackLog.Contents feedback = FeedbackLog.read(feedbackDir);
            final List<FeedbackLog.Entry> fed = feedback.ofKind(Feedback.OUTCOME);
            tally("predictions", stream.payments().keySet(), feedback.ofKind(Feedback.PREDICTION));
            tally("labels", stream.labels().keySet(), fed);
            final TrainingStatus status = client.<String, TrainingStatus>getMap(Payments.TRAINING).get(FraudScoringJob.MODEL);
            final double[] expected = stream.offlineWeights(fed.stream().map(FeedbackLog.Entry::txn).toList(), RATE, L2);
            final double worst = PaymentStream.largestDifference(expected, status.weights());
            System.out.println(labels + " expected, " + status.labels() + " learnt; weights differ from the offline SGD over the "
                    + "feedback log's order by " + worst + " at most; " + feedback.repeats()
                    + " feedback records emitted again after the restore and skipped by readers");
            assertThat(status.labels()).as("labels learnt").isEqualTo(labels);
            assertThat(worst).isLessThanOrEqualTo(1e-12);
            assertThat(client.getMap(Payments.SCORES).size()).isEqualTo(stream.payments().size());
            assertThat(client.getMap(scoring.lateMap()).size()).as("late payments").isZero();
            scorer.cancel();
            trainer.cancel();
        }
    }

    private static void tally(final String what, final Set<Long> expected, final List<FeedbackLog.Entry> entries) {
        final FeedbackLog.Tally tally = FeedbackLog.tally(what, expected, entries);
        System.out.println(tally);
        assertThat(tally.exact()).as(tally.toString()).isTrue();
    }
}
