package io.streamgrid.examples.cli;

import io.streamgrid.cli.CliRun;
import io.streamgrid.cli.StreamGridCli;
import io.streamgrid.client.OneMemberGrid;
import io.streamgrid.examples.fraud.FraudScore;
import io.streamgrid.examples.fraud.FraudScoringJob;
import io.streamgrid.examples.fraud.ModelVersion;
import io.streamgrid.examples.fraud.PaymentStream;
import io.streamgrid.examples.fraud.Payments;
import io.streamgrid.jobs.ingest.SchemaLog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The example jobs through the command line: {@code job submit fraud-scoring} and
 * {@code model-training} by name, then {@code job replay fraud-scoring --param model-version=V} scoring
 * the payments again through a kept version, into maps of its own. The example jobs are found as
 * services of the examples jar and take their parameters as the job declares them.
 */
class ExampleJobsCliTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void when_fraudJobsAreSubmittedByName_then_aReplayThroughAKeptVersionScoresAsThatVersionDoes() throws Exception {
        final PaymentStream stream = new PaymentStream(61, System.currentTimeMillis(), 300, 6_000, 0.8, 0);
        try (OneMemberGrid grid = OneMemberGrid.start(dir)) {
            final String config = grid.config.toString();
            final Path ingest = dir.resolve("ingest");
            try (SchemaLog payments = SchemaLog.open(SchemaLog.directoryOf(ingest, Payments.PAYMENT.name()), Payments.PAYMENT, 4);
                 SchemaLog outcomes = SchemaLog.open(SchemaLog.directoryOf(ingest, Payments.OUTCOME.name()), Payments.OUTCOME, 4)) {
                stream.append(payments, outcomes, 0, stream.events().size());
                payments.appendEndOfStream();
                outcomes.appendEndOfStream();
            }
            final CliRun early = CliRun.of("job", "submit", "model-training", "--config", config);
            assertThat(early.code()).as("the feedback log does not exist before the scoring job made it").isEqualTo(StreamGridCli.EXIT_USAGE);
            assertThat(early.err()).contains("reads schema fraud-feedback, but there is no log of it");

            final CliRun scoring = CliRun.of("job", "submit", "fraud-scoring", "--config", config);
            assertThat(scoring.code()).as(scoring.err()).isZero();
            assertThat(scoring.out()).contains("submitted fraud-scoring").contains("state.fraud-scores");
            await().atMost(Duration.ofMinutes(1)).until(() -> SchemaLog.exists(SchemaLog.directoryOf(ingest, Payments.FEEDBACK.name())));
            final CliRun training = CliRun.of("job", "submit", "model-training", "--config", config);
            assertThat(training.code()).as(training.err()).isZero();
            await().atMost(Duration.ofMinutes(1)).until(() -> grid.client.hazelcast().getMap(Payments.MODEL_VERSIONS)
                    .containsKey(Payments.versionKey(FraudScoringJob.MODEL, 10)));

            final CliRun wrongJob = CliRun.of("job", "submit", "ip-traffic", "--param", "model-version=3", "--config", config);
            assertThat(wrongJob.code()).isEqualTo(StreamGridCli.EXIT_USAGE);
            assertThat(wrongJob.errLines()).singleElement().asString().contains("ip-traffic takes no parameters");
            final CliRun undeclared = CliRun.of("job", "submit", "fraud-scoring", "--param", "version=3", "--config", config);
            assertThat(undeclared.code()).isEqualTo(StreamGridCli.EXIT_USAGE);
            assertThat(undeclared.errLines()).singleElement().asString().contains("--param version: this job takes model-version (");
            final CliRun notANumber = CliRun.of("job", "submit", "fraud-scoring", "--param", "model-version=ten", "--config", config);
            assertThat(notANumber.code()).isEqualTo(StreamGridCli.EXIT_USAGE);
            assertThat(notANumber.errLines()).singleElement().asString().contains("model-version is a whole number from 1, was 'ten'");

            final CliRun replay = CliRun.of("job", "replay", "fraud-scoring", "--into", "v10", "--param", "model-version=10",
                    "--config", config);
            assertThat(replay.code()).as(replay.err()).isZero();
            assertThat(replay.out()).contains("as fraud-scoring.v10").contains("with model-version=10")
                    .contains("state.fraud-scores.v10");
            final String replayScores = Payments.SCORES + ".v10";
            await().atMost(Duration.ofMinutes(1)).until(() -> grid.client.hazelcast().getMap(replayScores).size()
                    >= stream.payments().size());
            final ModelVersion ten = grid.client.hazelcast().<String, ModelVersion>getMap(Payments.MODEL_VERSIONS)
                    .get(Payments.versionKey(FraudScoringJob.MODEL, 10));
            final Map<Long, Double> offline = stream.offlineScores(ten.weights());
            final Map<Long, FraudScore> replayed = Map.copyOf(grid.client.hazelcast().<Long, FraudScore>getMap(replayScores));
            assertThat(replayed.keySet()).isEqualTo(offline.keySet());
            assertThat(replayed.values()).allSatisfy(score -> {
                assertThat(score.modelVersion()).isEqualTo(10);
                assertThat(score.score()).isCloseTo(offline.get(score.txn()), org.assertj.core.data.Offset.offset(1e-12));
            });
            System.out.println(stream.payments().size() + " payments replayed through model version 10 from the command line, "
                    + "each score equal to the offline scoring");
            for (final String job : new String[] {"fraud-scoring.v10", "model-training", "fraud-scoring"}) {
                assertThat(CliRun.of("job", "cancel", job, "--config", config).code()).isZero();
            }
        }
    }
}
