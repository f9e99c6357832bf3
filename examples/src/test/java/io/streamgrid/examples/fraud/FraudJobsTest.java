package io.streamgrid.examples.fraud;

import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.JobStatus;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.pipeline.Replay;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The fraud example's two jobs together, against the {@link PaymentStream} oracle: the scoring job
 * scores every payment and feeds every prediction and outcome back once, with the features the
 * oracle computes; the training job learns every label once, so its weights equal an offline SGD
 * over the labels in the feedback log's order; versions are published and used for scoring.
 */
class FraudJobsTest extends EmbeddedMemberTest {
    static final double RATE = 0.05;
    static final double L2 = 0.0001;
    static final int PUBLISH_EVERY = 50;
    static final int KEEP = 20;

    /**
     * Design of this test: 30,000 payments of 400 users, 80 % labelled, 12 orphan outcomes, loaded
     * in three parts while both jobs run with 100 ms snapshots; both jobs are restarted between the
     * parts. At the end every oracle comparison must hold exactly (weights to 1e-12). Then the
     * payments are replayed through the oldest version kept, beside the live job: every replayed
     * score equals the offline scoring with that version's weights, the live scores untouched.
     */
    @Test
    void when_paymentsAndOutcomesStreamThroughRestarts_then_scoresFeedbackAndWeightsEqualTheOracle() throws Exception {
        final PaymentStream stream = new PaymentStream(31, System.currentTimeMillis(), 400, 30_000, 0.8, 12);
        final int n = stream.events().size();
        final KeyedJob<?> scoring = new FraudScoringJob().job();
        final KeyedJob<?> training = new ModelTrainingJob(RATE, L2, PUBLISH_EVERY, KEEP).job();
        final JobOptions options = JobOptions.of(dir).withSnapshotInterval(100).withLocalParallelism(2);
        startMember();
        try (SchemaLog payments = SchemaLog.open(SchemaLog.directoryOf(dir, Payments.PAYMENT.name()), Payments.PAYMENT, 4);
             SchemaLog outcomes = SchemaLog.open(SchemaLog.directoryOf(dir, Payments.OUTCOME.name()), Payments.OUTCOME, 4)) {
            stream.append(payments, outcomes, 0, n / 3);
            final Job scorer = Jobs.submit(member.getJet(), scoring, options);
            await().atMost(Duration.ofMinutes(1)).until(() -> SchemaLog.exists(feedbackDir()));
            final Job trainer = Jobs.submit(member.getJet(), training, options);
            for (int part = 1; part < 3; part++) {
                await().atMost(Duration.ofMinutes(1)).until(() -> scorer.getStatus() == JobStatus.RUNNING
                        && trainer.getStatus() == JobStatus.RUNNING);
                Thread.sleep(500);
                scorer.restart();
                trainer.restart();
                stream.append(payments, outcomes, part * n / 3, part == 2 ? n : (part + 1) * n / 3);
            }
            payments.appendEndOfStream();
            outcomes.appendEndOfStream();
            final int labels = stream.labels().size();
            await().atMost(Duration.ofMinutes(2)).until(() -> {
                final TrainingStatus status = member.<String, TrainingStatus>getMap(Payments.TRAINING).get(FraudScoringJob.MODEL);
                return status != null && status.labels() >= labels
                        && member.getMap(Payments.SCORES).size() >= stream.payments().size();
            });
            Thread.sleep(1_000); // nothing more may come

            final Map<Long, FraudScore> scores = Map.copyOf(member.<Long, FraudScore>getMap(Payments.SCORES));
            assertThat(scores.keySet()).isEqualTo(stream.payments().keySet());
            scores.values().forEach(s -> assertThat(s.user()).isEqualTo(stream.payments().get(s.txn()).user()));
            assertThat(member.<String, OrphanOutcome>getMap(Payments.ORPHAN_OUTCOMES).values().stream().map(OrphanOutcome::txn)
                    .collect(Collectors.toSet())).isEqualTo(stream.orphans().stream().map(PaymentStream.Outcome::txn).collect(Collectors.toSet()));

            final FeedbackLog.Contents feedback = FeedbackLog.read(feedbackDir());
            final Map<Long, Features> features = stream.expectedFeatures();
            final List<FeedbackLog.Entry> predictions = feedback.ofKind(Feedback.PREDICTION);
            final List<FeedbackLog.Entry> outcomesFed = feedback.ofKind(Feedback.OUTCOME);
            check("predictions", stream.payments().keySet(), predictions);
            check("outcomes", stream.labels().keySet(), outcomesFed);
            for (final FeedbackLog.Entry e : feedback.entries()) {
                assertThat(e.features()).as("features of payment %d", e.txn()).isEqualTo(features.get(e.txn()));
                if (e.kind() == Feedback.OUTCOME) {
                    assertThat(e.fraud()).isEqualTo(stream.labels().get(e.txn()));
                }
            }
            assertThat(outcomesFed.stream().map(FeedbackLog.Entry::partition).distinct().toList())
                    .as("a model's labels are in one partition: one order").hasSize(1);

            final TrainingStatus status = member.<String, TrainingStatus>getMap(Payments.TRAINING).get(FraudScoringJob.MODEL);
            final double[] expected = stream.offlineWeights(outcomesFed.stream().map(FeedbackLog.Entry::txn).toList(), RATE, L2);
            assertThat(status.labels()).isEqualTo(labels);
            final double worst = PaymentStream.largestDifference(expected, status.weights());
            System.out.println(labels + " labels expected, " + status.labels() + " learnt; weights differ from the offline SGD's by "
                    + worst + " at most; " + feedback.repeats() + " repeated feedback records skipped");
            assertThat(worst).isLessThanOrEqualTo(1e-12);

            final long versions = labels / PUBLISH_EVERY;
            assertThat(status.version()).isEqualTo(versions);
            assertThat(member.<String, ModelVersion>getMap(Payments.MODELS).get(FraudScoringJob.MODEL).version()).isEqualTo(versions);
            assertThat(member.<String, ModelVersion>getMap(Payments.MODEL_VERSIONS).keySet()).isEqualTo(
                    java.util.stream.LongStream.rangeClosed(versions - KEEP + 1, versions)
                            .mapToObj(v -> Payments.versionKey(FraudScoringJob.MODEL, v)).collect(Collectors.toSet()));
            final long scoredByAModel = scores.values().stream().filter(s -> s.modelVersion() > 0).count();
            System.out.println(scoredByAModel + " of " + scores.size() + " payments scored by a published version; "
                    + accuracy(scores, stream.labels()));
            assertThat(scoredByAModel).as("published versions reach the scoring job").isPositive();
            assertThat(member.getMap(scoring.lateMap()).size()).isZero();
            assertThat(member.getMap(scoring.rejectedMap()).size()).isZero();

            // Kappa: the payments again through the oldest version kept, beside the live job.
            final long oldest = versions - KEEP + 1;
            final ModelVersion old = member.<String, ModelVersion>getMap(Payments.MODEL_VERSIONS)
                    .get(Payments.versionKey(FraudScoringJob.MODEL, oldest));
            final Replay replay = Replay.into("v" + oldest);
            final Job replaying = Jobs.submit(member.getJet(), new FraudScoringJob().withModelVersion(oldest).job(),
                    options.withReplay(replay));
            final String replayScores = replay.mapName(Payments.SCORES);
            await().atMost(Duration.ofMinutes(1)).until(() -> member.getMap(replayScores).size() >= stream.payments().size());
            final Map<Long, Double> offline = stream.offlineScores(old.weights());
            final Map<Long, FraudScore> replayed = Map.copyOf(member.<Long, FraudScore>getMap(replayScores));
            long differ = 0;
            for (final FraudScore score : replayed.values()) {
                differ += Math.abs(score.score() - offline.get(score.txn())) > 1e-12 || score.modelVersion() != oldest ? 1 : 0;
            }
            System.out.println("replay through version " + oldest + ": " + offline.size() + " scores expected, " + replayed.size()
                    + " found, " + differ + " differ from the offline scoring; " + accuracy(replayed, stream.labels())
                    + "; live: " + accuracy(scores, stream.labels()));
            assertThat(replayed.keySet()).isEqualTo(offline.keySet());
            assertThat(differ).isZero();
            assertThat(Map.copyOf(member.<Long, FraudScore>getMap(Payments.SCORES))).as("the live scores, untouched").isEqualTo(scores);
            replaying.cancel();
            scorer.cancel();
            trainer.cancel();
        }
    }

    private java.nio.file.Path feedbackDir() {
        return SchemaLog.directoryOf(dir, Payments.FEEDBACK.name());
    }

    static void check(final String what, final Set<Long> expected, final List<FeedbackLog.Entry> entries) {
        final FeedbackLog.Tally tally = FeedbackLog.tally(what, expected, entries);
        System.out.println(tally);
        assertThat(tally.exact()).as(tally.toString()).isTrue();
    }

    /** Share of labelled payments scored by a published version whose flag matched the label, and the share that are not fraud. */
    static String accuracy(final Map<Long, FraudScore> scores, final Map<Long, Boolean> labels) {
        long right = 0;
        long scored = 0;
        long honest = 0;
        for (final Map.Entry<Long, Boolean> label : labels.entrySet()) {
            final FraudScore score = scores.get(label.getKey());
            if (score.modelVersion() > 0) {
                scored++;
                right += score.flagged() == label.getValue() ? 1 : 0;
                honest += label.getValue() ? 0 : 1;
            }
        }
        return String.format("flags matched %.1f %% of %d labels scored by a version (%.1f %% of them not fraud)",
                100.0 * right / scored, scored, 100.0 * honest / scored);
    }
}
