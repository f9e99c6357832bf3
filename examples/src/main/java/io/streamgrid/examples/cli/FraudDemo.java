package io.streamgrid.examples.cli;

import io.streamgrid.cli.ClusterDemo;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.cli.Demos;
import io.streamgrid.cli.StreamGridCli;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import io.streamgrid.client.Delta;
import io.streamgrid.client.DeltaListener;
import io.streamgrid.client.StreamGridClient;
import io.streamgrid.client.Subscription;
import io.streamgrid.client.SubscriptionOptions;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.examples.fraud.DriftAlert;
import io.streamgrid.examples.fraud.Feedback;
import io.streamgrid.examples.fraud.FeedbackLog;
import io.streamgrid.examples.fraud.FraudScore;
import io.streamgrid.examples.fraud.FraudScoringJob;
import io.streamgrid.examples.fraud.ModelMonitoringJob;
import io.streamgrid.examples.fraud.ModelTrainingJob;
import io.streamgrid.examples.fraud.ModelVersion;
import io.streamgrid.examples.fraud.ModelWindow;
import io.streamgrid.examples.fraud.MonitoringOracle;
import io.streamgrid.examples.fraud.PaymentStream;
import io.streamgrid.examples.fraud.Payments;
import io.streamgrid.examples.fraud.TrainingStatus;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.pipeline.Replay;
import picocli.CommandLine.Command;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code streamgrid demo fraud}: online learning on the public job API, on three member processes.
 * Payments are scored on arrival by a logistic-regression model whose weights live in the grid;
 * their outcomes, fed back through the ingest log, train it by SGD exactly once; model quality is
 * followed over sliding windows, and a fraud ring starting at a known time raises a drift alert.
 * A member is killed mid-stream. At the end: every label learnt once (the weights equal an offline
 * SGD over the feedback log's order), the windows and alerts equal an oracle's, and the payments are
 * replayed through the version from before the shift to judge a rollback. Exit 0 only if all hold.
 */
@Command(name = "fraud", mixinStandardHelpOptions = true,
        description = {"Run the online-learning example (fraud scoring with model weights in the grid, SGD from fed-back",
                "outcomes, model monitoring with a drift alert, a replay through an older version) on 3 members, kill a member",
                "mid-stream, and check it all against an oracle."})
public final class FraudDemo extends ClusterDemo {
    private static final int PARTITIONS = 6;
    private static final DateTimeFormatter CLOCK = DateTimeFormatter.ofPattern("HH:mm").withZone(ZoneOffset.UTC);
    /** 5-minute windows by the minute; 10 minutes' lateness, since the demo compresses 27 minutes of event time into 15 s. */
    private static final ModelMonitoringJob.Settings MONITORING = new ModelMonitoringJob.Settings(300_000, 60_000, 600_000, 0.5, 5,
            100, 0.05, 0.05);
    private static final double RATE = 0.05;
    private static final double L2 = 0.0001;

    @Override
    protected int run(final PrintWriter out) throws Exception {
        final KeyedJob<?> scoring = new FraudScoringJob().job();
        final KeyedJob<?> training = new ModelTrainingJob(RATE, L2, 500, 200).job();
        final KeyedJob<?> monitoring = new ModelMonitoringJob(MONITORING).job();
        out.println("== StreamGrid fraud demo: 6,000 users, 80,000 payments over about 27 minutes of event time, 80 % of them "
                + "labelled later; a fraud ring starts after 9 minutes");
        final JobOptions options = workDir.jobOptions();
        try (LocalCluster cluster = workDir.startThreeMembers(out);
             StreamGridClient streamGrid = StreamGridClient.connect(cluster.clientSettings());
             SchemaLog payments = SchemaLog.open(Jobs.logDirectory(scoring, options), Payments.PAYMENT, PARTITIONS);
             SchemaLog outcomes = SchemaLog.open(Jobs.logDirectory(scoring, options).resolveSibling(Payments.OUTCOME.name()),
                     Payments.OUTCOME, PARTITIONS)) {
            final HazelcastInstance client = streamGrid.hazelcast();
            final List<Job> jobs = new ArrayList<>();
            jobs.add(Jobs.submit(client.getJet(), scoring, options));
            final Path feedbackDir = Jobs.logDirectory(training, options);
            Demos.readUntil(out, "the scoring job to create its feedback log", () -> SchemaLog.exists(feedbackDir), created -> created);
            jobs.add(Jobs.submit(client.getJet(), training, options));
            jobs.add(Jobs.submit(client.getJet(), monitoring, options));
            // Event time from the next minute on: ahead of the wall clock, as a live stream is. (A quiet log's heartbeat
            // moves its clock to the wall clock, so events far behind it would be late.)
            final long start = Math.floorDiv(System.currentTimeMillis(), 60_000) * 60_000 + 60_000;
            final long shift = start + 9 * 60_000;
            final PaymentStream stream = new PaymentStream(2026, start, 6_000, 80_000, 0.8, 20, shift);
            final int total = stream.events().size();
            out.println("== event time from " + CLOCK.format(Instant.ofEpochMilli(start)) + " UTC; the ring starts at "
                    + CLOCK.format(Instant.ofEpochMilli(shift)));
            out.println("== jobs " + scoring.name() + " (scores each payment, emits predictions and outcomes to the "
                    + Payments.FEEDBACK.name() + " log), " + training.name() + " (one SGD step per label, a version every 500) and "
                    + monitoring.name() + " submitted, exactly-once");
            try (Subscription windows = streamGrid.subscribe(Payments.MONITORING, "", windowPrinter(out, start),
                    SubscriptionOptions.defaults());
                 Subscription alerts = streamGrid.subscribe(Payments.DRIFT_ALERTS, "", alertPrinter(out), SubscriptionOptions.defaults())) {
                Demos.appendKillingMidway(cluster, out, total, "payments and outcomes",
                        (from, to) -> stream.append(payments, outcomes, from, to));
                payments.appendEndOfStream();
                outcomes.appendEndOfStream();
                out.println("== all " + total + " payments and outcomes appended; waiting for the jobs");
                final int labels = stream.labels().size();
                Demos.readUntil(out, "the model to be trained on every label",
                        () -> client.<String, TrainingStatus>getMap(Payments.TRAINING).get(FraudScoringJob.MODEL),
                        status -> status != null && status.labels() >= labels);
                final FeedbackLog.Contents feedback = FeedbackLog.read(feedbackDir);
                final MonitoringOracle oracle = new MonitoringOracle(feedback.entries(), MONITORING, FraudScoringJob.MODEL);
                final Map<String, ModelWindow> written = Demos.readUntil(out, "the monitoring windows to match the oracle",
                        () -> new HashMap<>(client.<String, ModelWindow>getMap(Payments.MONITORING)),
                        found -> sameCounts(found, oracle.windows()));
                Thread.sleep(1_000); // the last alerts' deltas
                final boolean checked = check(out, client, stream, feedback, oracle, written, shift, scoring.lateMap(), monitoring.lateMap());
                final boolean replayed = rollback(out, client, stream, options, shift);
                return checked && replayed ? pass(out, jobs) : fail(out, jobs);
            }
        }
    }

    private static boolean check(final PrintWriter out, final HazelcastInstance client, final PaymentStream stream,
                                 final FeedbackLog.Contents feedback, final MonitoringOracle oracle, final Map<String, ModelWindow> written,
                                 final long shift, final String lateEventsMap, final String lateFeedbackMap) {
        final FeedbackLog.Tally predictions = FeedbackLog.tally("predictions", stream.payments().keySet(),
                feedback.ofKind(Feedback.PREDICTION));
        final List<FeedbackLog.Entry> fed = feedback.ofKind(Feedback.OUTCOME);
        final FeedbackLog.Tally labels = FeedbackLog.tally("labels", stream.labels().keySet(), fed);
        final TrainingStatus status = client.<String, TrainingStatus>getMap(Payments.TRAINING).get(FraudScoringJob.MODEL);
        final double[] expected = stream.offlineWeights(fed.stream().map(FeedbackLog.Entry::txn).toList(), RATE, L2);
        final double worst = PaymentStream.largestDifference(expected, status.weights());
        final int lateEvents = client.getMap(lateEventsMap).size();
        out.println("== check: " + lateEvents + " payments or outcomes too late; " + predictions + "; " + labels + " (" + feedback.repeats() + " feedback records emitted again after "
                + "the restore, skipped); " + status.labels() + " labels learnt, weights within " + worst + " of an offline SGD over "
                + "the same labels in the feedback log's order; " + status.version() + " versions published");
        final List<String> differ = written.entrySet().stream().filter(e -> !sameFigures(e.getValue(), oracle.windows().get(e.getKey())))
                .map(Map.Entry::getKey).sorted().toList();
        final Map<String, DriftAlert> alerts = new HashMap<>(client.<String, DriftAlert>getMap(Payments.DRIFT_ALERTS));
        final long firstAfter = Math.floorDiv(shift + 59_999, 60_000) * 60_000 + MONITORING.windowMs();
        final boolean alertsRight = alerts.keySet().equals(oracle.alerts())
                && alerts.values().stream().allMatch(a -> a.end() > shift)
                && alerts.containsKey(Payments.windowKey(FraudScoringJob.MODEL, firstAfter));
        final int late = client.getMap(lateFeedbackMap).size();
        final int orphans = client.getMap(Payments.ORPHAN_OUTCOMES).size();
        out.println("== check: " + oracle.windows().size() + " windows expected, " + written.size() + " written, " + differ.size()
                + " differ from the oracle" + (differ.isEmpty() ? "" : " (e.g. " + differ.get(0) + ")") + "; " + late
                + " feedback records too late; drift alerts for " + alerts.size() + " windows, " + (alertsRight
                ? "as the oracle says, none before the ring started and one for the first window after it"
                : "NOT as the oracle says: " + alerts.keySet() + " vs " + oracle.alerts()) + "; " + orphans + " of "
                + stream.orphans().size() + " outcomes without a payment set aside with the reason");
        return lateEvents == 0 && predictions.exact() && labels.exact() && status.labels() == stream.labels().size() && worst <= 1e-12
                && written.size() == oracle.windows().size() && differ.isEmpty() && late == 0 && alertsRight
                && orphans == stream.orphans().size();
    }

    /**
     * Should the model be rolled back to the version from before the ring? The payments again through
     * that version, beside the live job, compared on the labels since the shift.
     */
    private static boolean rollback(final PrintWriter out, final HazelcastInstance client, final PaymentStream stream,
                                    final JobOptions options, final long shift) throws Exception {
        final ModelVersion before = client.<String, ModelVersion>getMap(Payments.MODEL_VERSIONS).values().stream()
                .filter(v -> v.publishedAt() < shift).max(Comparator.comparingLong(ModelVersion::version)).orElseThrow();
        final Replay replay = Replay.into("v" + before.version());
        out.println("== rollback question: replaying every payment through version " + before.version() + " (published "
                + CLOCK.format(Instant.ofEpochMilli(before.publishedAt())) + ", before the ring) beside the live job, into "
                + replay.mapName(Payments.SCORES));
        final Job replaying = Jobs.submit(client.getJet(), new FraudScoringJob().withModelVersion(before.version()).job(),
                options.withReplay(replay));
        final Map<Long, FraudScore> replayed = Demos.readUntil(out, "the replay to score every payment",
                () -> new HashMap<>(client.<Long, FraudScore>getMap(replay.mapName(Payments.SCORES))),
                found -> found.size() >= stream.payments().size());
        replaying.cancel();
        final Map<Long, FraudScore> live = new HashMap<>(client.<Long, FraudScore>getMap(Payments.SCORES));
        final Map<Long, Double> offline = stream.offlineScores(before.weights());
        final long differ = replayed.values().stream().filter(s -> Math.abs(s.score() - offline.get(s.txn())) > 1e-12).count();
        final double old = accuracySince(replayed, stream, shift);
        final double now = accuracySince(live, stream, shift);
        out.printf("   on the labels since the ring started: version %d flags %.1f %% right, the live versions %.1f %% -> %s%n",
                before.version(), 100 * old, 100 * now, old > now ? "roll back: streamgrid model activate fraud " + before.version()
                        : "keep the newest (it has learnt the ring)");
        out.println("== check: " + offline.size() + " replayed scores expected, " + replayed.size() + " found, " + differ
                + " differ from an offline scoring with version " + before.version() + "'s weights");
        return replayed.size() == offline.size() && differ == 0;
    }

    /** Share of the labelled payments from {@code since} on whose flag (a published version's score ≥ 0.5) matched the label. */
    private static double accuracySince(final Map<Long, FraudScore> scores, final PaymentStream stream, final long since) {
        long right = 0;
        long counted = 0;
        for (final Map.Entry<Long, Boolean> label : stream.labels().entrySet()) {
            final FraudScore score = scores.get(label.getKey());
            if (score != null && score.ts() >= since) {
                counted++;
                right += score.flagged() == label.getValue() ? 1 : 0;
            }
        }
        return (double) right / counted;
    }

    private static boolean sameCounts(final Map<String, ModelWindow> found, final Map<String, ModelWindow> expected) {
        return found.size() == expected.size() && expected.entrySet().stream().allMatch(e -> found.containsKey(e.getKey())
                && found.get(e.getKey()).outcomes() == e.getValue().outcomes()
                && found.get(e.getKey()).predictions() == e.getValue().predictions());
    }

    private static boolean sameFigures(final ModelWindow found, final ModelWindow expected) {
        return expected != null && found.outcomes() == expected.outcomes() && found.predictions() == expected.predictions()
                && close(found.accuracy(), expected.accuracy()) && close(found.logLoss(), expected.logLoss())
                && close(found.fraudRate(), expected.fraudRate()) && close(found.flaggedRate(), expected.flaggedRate())
                && close(found.meanScoringLagMs(), expected.meanScoringLagMs()) && found.maxScoringLagMs() == expected.maxScoringLagMs();
    }

    private static boolean close(final double a, final double b) {
        return Double.compare(a, b) == 0 || Math.abs(a - b) <= 1e-9;
    }

    /** Prints each window as it is first written (a continuous query on the monitoring map). */
    private static DeltaListener windowPrinter(final PrintWriter out, final long start) {
        return new DeltaListener() {
            @Override
            public void onSnapshot(final Map<Object, Object> entries) {
                out.println("   following " + Payments.MONITORING + " (a continuous query): model quality per 5-minute window");
            }

            @Override
            public void onDelta(final Delta delta) {
                if (delta.kind() == Delta.Kind.ENTER) {
                    final ModelWindow w = (ModelWindow) delta.value();
                    // Not the scoring lag: the demo's event time runs ahead of the wall clock, so it is 0 here.
                    out.printf("   window %s-%s: %5d labels%s | %5d payments, %4.1f %% flagged%n",
                            CLOCK.format(Instant.ofEpochMilli(w.start())), CLOCK.format(Instant.ofEpochMilli(w.end())), w.outcomes(),
                            w.outcomes() == 0 ? " (none scored by a version yet)" : String.format(", accuracy %5.1f %%, log loss %.3f, "
                                    + "fraud %5.1f %%", 100 * w.accuracy(), w.logLoss(), 100 * w.fraudRate()), w.predictions(),
                            100 * w.flaggedRate());
                }
            }
        };
    }

    private static DeltaListener alertPrinter(final PrintWriter out) {
        return new DeltaListener() {
            @Override
            public void onSnapshot(final Map<Object, Object> entries) {
            }

            @Override
            public void onDelta(final Delta delta) {
                if (delta.kind() == Delta.Kind.ENTER) {
                    final DriftAlert a = (DriftAlert) delta.value();
                    out.println("   !! drift alert, window " + CLOCK.format(Instant.ofEpochMilli(a.start())) + "-"
                            + CLOCK.format(Instant.ofEpochMilli(a.end())) + ": " + a.reason());
                }
            }
        };
    }

    private static int pass(final PrintWriter out, final List<Job> jobs) {
        jobs.forEach(Job::cancel);
        out.println("== fraud demo passed; stopping the cluster");
        return 0;
    }

    private static int fail(final PrintWriter out, final List<Job> jobs) {
        jobs.forEach(Job::cancel);
        out.println("== fraud demo FAILED");
        return StreamGridCli.EXIT_FAILED;
    }
}
