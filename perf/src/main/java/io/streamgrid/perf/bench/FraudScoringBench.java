package io.streamgrid.perf.bench;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.JetService;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.config.JobConfig;
import com.hazelcast.jet.config.ProcessingGuarantee;
import com.hazelcast.jet.pipeline.Pipeline;
import com.hazelcast.jet.pipeline.Sink;
import com.hazelcast.jet.pipeline.SinkBuilder;
import com.hazelcast.jet.pipeline.StreamStage;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.examples.fraud.Feedback;
import io.streamgrid.examples.fraud.Features;
import io.streamgrid.examples.fraud.FraudScore;
import io.streamgrid.examples.fraud.FraudScoringJob;
import io.streamgrid.examples.fraud.LogisticModel;
import io.streamgrid.examples.fraud.ModelVersion;
import io.streamgrid.examples.fraud.PaymentProfile;
import io.streamgrid.examples.fraud.PaymentStream;
import io.streamgrid.examples.fraud.Payments;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedContext;
import io.streamgrid.jobs.keyed.KeyedFunction;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.perf.BenchContext;
import io.streamgrid.perf.report.BenchResult;
import io.streamgrid.perf.Benchmark;
import io.streamgrid.perf.report.Environment;
import io.streamgrid.perf.report.GoalCheck;
import io.streamgrid.perf.report.Measurement;
import io.streamgrid.perf.report.Ratio;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.Serializable;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Fraud scoring throughput: every payment's rolling features, its score by the model's weights held
 * in the grid, the score written to a map and the prediction appended to a feedback log — the
 * fraud example's scoring job (keyed state, weights from a member-local replica of
 * {@code dim.models}, predictions emitted exactly once) against the same work in one plain Jet
 * pipeline ({@code mapUsingIMap} for the weights, {@code mapStateful} per user with the example's
 * {@link PaymentProfile}, the scores to a map by an ordered putAll sink, the predictions appended to
 * a schema log by a sink).
 *
 * <p>Design: the payments (no outcomes: scoring is what is measured) are generated once into a
 * schema log; each subject drains it and tallies every payment scored. Throughput = payments / time
 * from submission until every payment was scored once.
 */
public final class FraudScoringBench implements Benchmark {
    static final int USERS = 20_000;
    static final int PARTITIONS = 2;
    static final int PARALLELISM = 2;
    /** No state.* name: the reference map gets Hazelcast's defaults, without the event journal state maps carry. */
    static final String JET_SCORES = "jet-fraud-scores";
    static final ResultTally OURS = new ResultTally();
    static final ResultTally JET = new ResultTally();
    private static final AtomicInteger JOB_IDS = new AtomicInteger();

    @Override
    public String name() {
        return "fraud-scoring";
    }

    @Override
    public String title() {
        return "fraud scoring (rolling features, model weights in the grid, score to a map, prediction to a log): StreamGrid "
                + "keyed job vs plain Jet mapUsingIMap + mapStateful";
    }

    @Override
    public BenchResult run(final BenchContext context) throws Exception {
        final int runs = context.pick(3, 5);
        final int payments = context.pick(300_000, 1_000_000);
        final Path logs = context.workDir().resolve("logs");
        context.progress("generating " + payments + " payments of " + USERS + " users into " + logs);
        final Path paymentLog = SchemaLog.directoryOf(logs, Payments.PAYMENT.name());
        try (SchemaLog paymentsOut = SchemaLog.open(paymentLog, Payments.PAYMENT, PARTITIONS);
             SchemaLog outcomes = SchemaLog.open(SchemaLog.directoryOf(logs, Payments.OUTCOME.name()), Payments.OUTCOME, PARTITIONS)) {
            final PaymentStream stream = new PaymentStream(2026, 1_700_000_000_000L, USERS, payments, 0, 0);
            stream.append(paymentsOut, outcomes, 0, stream.events().size());
            paymentsOut.appendEndOfStream();
            outcomes.appendEndOfStream();
        }
        final List<String> labels = List.of("StreamGrid keyed job (replica lookup, emitted predictions)",
                "plain Jet mapUsingIMap + mapStateful + sinks");
        final List<Function<JetService, Job>> subjects = List.of(ours(logs),
                jet(paymentLog, context.workDir().resolve("jet-feedback")));
        final double[][] rates;
        try (EmbeddedGrid grid = EmbeddedGrid.start(context.workDir().resolve("member"))) {
            final HazelcastInstance member = grid.member();
            final double[] weights = new double[Features.DIMENSIONS];
            for (int i = 0; i < weights.length; i++) {
                weights[i] = (i % 3 - 1) * 0.5;
            }
            member.getMap(Payments.MODELS).put(FraudScoringJob.MODEL, new ModelVersion(FraudScoringJob.MODEL, 1, weights, 100, 0));
            rates = Drain.alternating(context, member.getJet(), labels, subjects, List.of(OURS, JET), payments, 1, runs, "payments");
        }
        context.emptyWorkDir();
        final List<Measurement> m = new ArrayList<>();
        m.add(Measurement.of(labels.get(0), "ours", "payments/s", rates[0]));
        m.add(Measurement.of(labels.get(1), "reference", "payments/s", rates[1]));
        final double ours = m.get(0).median();
        final double jet = m.get(1).median();
        return new BenchResult(name(), title(), String.format(Locale.ROOT, "%,d payments of %,d users (seeded; each user pays about "
                        + "every two minutes of event time), in a schema log of %d partitions. One embedded member (Jet, 2 "
                        + "cooperative threads), local parallelism %d, no processing guarantee for either; every scored payment "
                        + "tallied. One warm-up run per subject, then %d runs, subjects alternating.", payments, USERS, PARTITIONS,
                        PARALLELISM, runs),
                context.pick("quick", "full"), Instant.now().toString(), Environment.current(), m, List.of(),
                List.of(Ratio.of("StreamGrid / plain Jet, payments/s", ours, jet, "above 1: we are faster; the goal is ≥ 2")),
                List.of(GoalCheck.of("Scoring ≥ 2× plain Jet mapStateful + mapUsingIMap", ours >= 2 * jet, String.format(Locale.ROOT,
                        "%.2f× (%,.0f vs %,.0f payments/s)", ours / jet, ours, jet))),
                List.of("Both compute the features with the example's PaymentProfile, score with LogisticModel, write a FraudScore "
                                + "per payment and append a prediction record to a schema log; ours also registers the payment's "
                                + "label-timeout timer and reads the model from a member-local replica; Jet reads it with mapUsingIMap.",
                        "Ours writes scores to state.fraud-scores, which has the event journal state maps carry; the reference's "
                                + "map has Hazelcast's defaults.",
                        "Ours reads the payment and the (empty, ended) outcome log merged in event time, as the job always does.",
                        "Both tally a payment when its prediction is appended (ours in the function, which appends it; Jet in the "
                                + "feedback sink); the score's map write may still be in flight then, for both (bounded by the "
                                + "edges' queues, so a slow map writer slows either subject)."));
    }

    private static JobConfig config(final String name) {
        return new JobConfig().setName(name + "-" + JOB_IDS.incrementAndGet()).setProcessingGuarantee(ProcessingGuarantee.NONE);
    }

    private static Function<JetService, Job> ours(final Path logs) {
        final KeyedJob<?> scoring = tallied(new FraudScoringJob().job());
        return jet -> Jobs.submit(jet, scoring, JobOptions.of(logs).withLocalParallelism(PARALLELISM), null,
                config("bench-fraud-scoring"));
    }

    /** The scoring job with its function counting each payment it handled. */
    private static <S> KeyedJob<S> tallied(final KeyedJob<S> job) {
        return job.withFunction(new Tallied<>(job.function()));
    }

    private record Tallied<S>(KeyedFunction<S> scoring) implements KeyedFunction<S> {
        @Override
        public void onEvent(final SchemaRecord event, final KeyedContext<S> context) {
            scoring.onEvent(event, context);
            OURS.tally.increment();
        }

        @Override
        public void onTimer(final long time, final KeyedContext<S> context) {
            scoring.onTimer(time, context);
        }
    }

    /** A payment as the plain pipeline carries it, and with the model's weights. */
    record Payment(long user, long ts, long txn, double amount, int category) implements Serializable {
    }

    record Weighed(Payment payment, ModelVersion model) implements Serializable {
    }

    /** A scored payment: what goes to the map and the feedback log (Java-serializable between the stages). */
    record Scored(long user, long txn, long ts, double amount, double avgAmount1h, int count10m, long sincePreviousMs, int category,
                  double score, long version) implements Serializable {
        FraudScore fraudScore() {
            return new FraudScore(user, txn, ts, amount, score, version, score >= 0.5);
        }
    }

    private static Function<JetService, Job> jet(final Path paymentLog, final Path feedbackLog) {
        final Pipeline pipeline = pipeline(paymentLog, feedbackLog);
        return jet -> jet.newJob(pipeline, config("bench-jet-fraud-scoring"));
    }

    /** The plain Jet reference reading {@code paymentLog}: scores to {@link #JET_SCORES}, predictions to a schema log in {@code feedbackLog}. */
    static Pipeline pipeline(final Path paymentLog, final Path feedbackLog) {
        final Pipeline pipeline = Pipeline.create();
        final StreamStage<Scored> scored = pipeline.readFrom(SchemaLogSource.of(paymentLog, Payments.PAYMENT, PARALLELISM,
                        r -> new Payment(r.getLong(0), r.eventTime(), r.getLong(2), r.getDouble(3), r.getInt(4))))
                .withoutTimestamps()
                .mapUsingIMap(Payments.MODELS, p -> FraudScoringJob.MODEL, (Payment p, ModelVersion model) -> new Weighed(p, model))
                .groupingKey(w -> w.payment().user())
                .mapStateful(PaymentProfile::new, (profile, user, w) -> score(profile, w));
        scored.map(Scored::fraudScore).writeTo(OrderedMapSink.of(JET_SCORES, FraudScore::txn));
        scored.writeTo(feedbackSink(feedbackLog));
        return pipeline;
    }

    /** The scoring job's work per payment, without the job: features, score, remembered payment. */
    private static Scored score(final PaymentProfile profile, final Weighed w) {
        final Payment p = w.payment();
        final Features features = profile.features(p.ts(), p.amount(), p.category());
        final double[] x = new double[Features.DIMENSIONS];
        features.vector(x);
        final double score = LogisticModel.score(w.model().weights(), x);
        profile.add(p.ts(), p.amount(), FraudScoringJob.HORIZON_MS);
        profile.pending().add(new PaymentProfile.Pending(p.txn(), p.ts(), features, score, w.model().version()));
        return new Scored(p.user(), p.txn(), p.ts(), p.amount(), features.avgAmount1h(), features.count10m(), features.sincePreviousMs(),
                p.category(), score, w.model().version());
    }

    /** Appends each prediction to a feedback schema log (one per sink processor's partition of it) and tallies it. */
    private static Sink<Scored> feedbackSink(final Path dir) {
        final String path = dir.toAbsolutePath().toString();
        return SinkBuilder.sinkBuilder("feedback-log", c -> new FeedbackWriter(Path.of(path)))
                .<Scored>receiveFn(FeedbackWriter::append)
                .destroyFn(FeedbackWriter::close)
                .preferredLocalParallelism(1)
                .build();
    }

    private static final class FeedbackWriter {
        private final SchemaLog log;
        private final SchemaRecord record = new SchemaRecord(Payments.FEEDBACK.layout());
        private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[Payments.FEEDBACK.layout().length()]);

        FeedbackWriter(final Path dir) {
            log = SchemaLog.exists(dir) ? SchemaLog.openExisting(dir, Payments.FEEDBACK) : SchemaLog.open(dir, Payments.FEEDBACK, PARTITIONS);
        }

        void append(final Scored scored) {
            final Scored s = scored;
            record.wrapForWrite(buffer, 0).setString(Feedback.MODEL, FraudScoringJob.MODEL).setTimestamp(Feedback.TS, s.ts())
                    .setEnumOrdinal(Feedback.KIND, Feedback.PREDICTION).setLong(Feedback.USER, s.user()).setLong(Feedback.TXN, s.txn())
                    .setDouble(Feedback.AMOUNT, s.amount()).setDouble(Feedback.AVG_AMOUNT, s.avgAmount1h())
                    .setInt(Feedback.COUNT, s.count10m()).setLong(Feedback.SINCE_PREVIOUS, s.sincePreviousMs())
                    .setInt(Feedback.CATEGORY, s.category()).setDouble(Feedback.SCORE, s.score())
                    .setLong(Feedback.VERSION, s.version()).setBoolean(Feedback.FRAUD, false)
                    .setLong(Feedback.SCORING_LAG, Math.max(0, System.currentTimeMillis() - s.ts()));
            log.append(record);
            JET.tally.increment();
        }

        void close() {
            log.close();
        }
    }
}
