package io.streamgrid.examples.fraud;

import com.hazelcast.jet.Job;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.pipeline.JobOptions;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The monitoring job against an oracle computed from the feedback log apart from the job, over a
 * stream whose fraud pattern shifts at a known time: every window's figures equal the oracle's,
 * drift alerts are exactly the oracle's, none for a window before the shift and one for the first
 * window after it.
 */
class ModelMonitoringTest extends EmbeddedMemberTest {
    private static final ModelMonitoringJob.Settings SETTINGS = new ModelMonitoringJob.Settings(300_000, 60_000, 300_000, 0.5, 5, 100, 0.05, 0.05);

    /**
     * Design of this test: 6,000 users pay about every two minutes for 20 minutes of event time
     * (60,000 payments, 80 % labelled); at minute 9 a fraud ring starts at merchant categories 0
     * and 1. The scoring, training and monitoring jobs run while the stream is appended at about
     * 6,000 events a second — a minute of event time in half a second — and end; the end travels
     * through the feedback log, so every window holding feedback is written and settled.
     */
    @Test
    void when_theFraudPatternShifts_then_windowsEqualTheOracleAndTheFirstWindowAfterTheShiftAlerts() throws Exception {
        final long start = Math.floorDiv(System.currentTimeMillis(), 60_000) * 60_000 + 60_000; // ahead of the wall clock
        final long shift = start + 9 * 60_000;
        final PaymentStream stream = new PaymentStream(53, start, 6_000, 60_000, 0.8, 0, shift);
        final KeyedJob<?> scoring = new FraudScoringJob().job();
        final KeyedJob<?> monitoring = new ModelMonitoringJob(SETTINGS).job();
        final JobOptions options = JobOptions.of(dir).withSnapshotInterval(500).withLocalParallelism(2);
        startMember();
        try (SchemaLog payments = SchemaLog.open(SchemaLog.directoryOf(dir, Payments.PAYMENT.name()), Payments.PAYMENT, 4);
             SchemaLog outcomes = SchemaLog.open(SchemaLog.directoryOf(dir, Payments.OUTCOME.name()), Payments.OUTCOME, 4)) {
            final List<Job> jobs = new ArrayList<>();
            jobs.add(Jobs.submit(member.getJet(), scoring, options));
            await().atMost(Duration.ofMinutes(1)).until(() -> SchemaLog.exists(SchemaLog.directoryOf(dir, Payments.FEEDBACK.name())));
            jobs.add(Jobs.submit(member.getJet(), new ModelTrainingJob().job(), options));
            jobs.add(Jobs.submit(member.getJet(), monitoring, options));
            final int n = stream.events().size();
            for (int from = 0; from < n; from += 600) {
                stream.append(payments, outcomes, from, Math.min(n, from + 600));
                Thread.sleep(100);
            }
            payments.appendEndOfStream();
            outcomes.appendEndOfStream();
            final int labels = stream.labels().size();
            await().atMost(Duration.ofMinutes(2)).until(() -> {
                final TrainingStatus status = member.<String, TrainingStatus>getMap(Payments.TRAINING).get(FraudScoringJob.MODEL);
                return status != null && status.labels() >= labels;
            });
            final FeedbackLog.Contents feedback = FeedbackLog.read(SchemaLog.directoryOf(dir, Payments.FEEDBACK.name()));
            final MonitoringOracle oracle = new MonitoringOracle(feedback.entries(), SETTINGS, FraudScoringJob.MODEL);
            try {
                await().atMost(Duration.ofMinutes(1)).until(() -> member.<String, ModelWindow>getMap(Payments.MONITORING).entrySet().stream()
                        .filter(e -> oracle.windows().containsKey(e.getKey()))
                        .filter(e -> e.getValue().outcomes() == oracle.windows().get(e.getKey()).outcomes()
                                && e.getValue().predictions() == oracle.windows().get(e.getKey()).predictions())
                        .count() == oracle.windows().size());
            } catch (final org.awaitility.core.ConditionTimeoutException e) {
                System.out.println("windows still differ; late feedback: " + member.getMap(monitoring.lateMap()).size());
            }
            Thread.sleep(1_000);

            final Map<String, ModelWindow> windows = Map.copyOf(member.<String, ModelWindow>getMap(Payments.MONITORING));
            assertThat(new java.util.TreeSet<>(windows.keySet())).as("windows written beyond the oracle's")
                    .containsExactlyElementsOf(oracle.windows().keySet());
            oracle.windows().forEach((key, expected) -> {
                final ModelWindow found = windows.get(key);
                assertThat(found.outcomes()).as(key + ", minute " + (found.end() - start) / 60_000).isEqualTo(expected.outcomes());
                assertThat(found.predictions()).as(key).isEqualTo(expected.predictions());
                assertThat(found.accuracy()).as(key).isCloseTo(expected.accuracy(), org.assertj.core.data.Offset.offset(1e-9));
                assertThat(found.fraudRate()).as(key).isCloseTo(expected.fraudRate(), org.assertj.core.data.Offset.offset(1e-9));
                assertThat(found.logLoss()).as(key).isCloseTo(expected.logLoss(), org.assertj.core.data.Offset.offset(1e-9));
                assertThat(found.flaggedRate()).as(key).isCloseTo(expected.flaggedRate(), org.assertj.core.data.Offset.offset(1e-9));
                assertThat(found.meanScoringLagMs()).as(key).isCloseTo(expected.meanScoringLagMs(), org.assertj.core.data.Offset.offset(1e-9));
                assertThat(found.maxScoringLagMs()).as(key).isEqualTo(expected.maxScoringLagMs());
            });
            final Map<String, DriftAlert> alerts = Map.copyOf(member.<String, DriftAlert>getMap(Payments.DRIFT_ALERTS));
            assertThat(new java.util.TreeSet<>(alerts.keySet())).containsExactlyElementsOf(oracle.alerts());
            final Set<Long> alertEnds = alerts.values().stream().map(DriftAlert::end).collect(Collectors.toSet());
            final long firstAfter = Math.floorDiv(shift + 59_999, 60_000) * 60_000 + SETTINGS.windowMs();
            System.out.println(windows.size() + " windows expected and found; alerts at window ends (minutes from the start) "
                    + alertEnds.stream().sorted().map(e -> (e - start) / 60_000).toList() + "; the shift at minute " + (shift - start) / 60_000 + ", the first window "
                    + "after it ends at minute " + (firstAfter - start) / 60_000 + "; e.g. " + alerts.get(Payments.windowKey(
                    FraudScoringJob.MODEL, firstAfter)));
            assertThat(alertEnds).as("no alert for a window before the shift").allMatch(end -> end > shift);
            assertThat(alertEnds).as("an alert for the first window after the shift").contains(firstAfter);
            assertThat(member.getMap(monitoring.lateMap()).size()).isZero();
            jobs.forEach(Job::cancel);
        }
    }
}
