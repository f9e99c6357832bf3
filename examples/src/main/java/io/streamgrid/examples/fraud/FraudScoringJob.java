package io.streamgrid.examples.fraud;

import io.streamgrid.jobs.keyed.JobParameter;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.LongKeyContext;
import io.streamgrid.jobs.keyed.LongKeyedFunction;
import io.streamgrid.jobs.keyed.StreamGridJob;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;

import java.util.List;
import java.util.Map;

import static io.streamgrid.examples.fraud.Payments.FEEDBACK;
import static io.streamgrid.examples.fraud.Payments.OUTCOME;
import static io.streamgrid.examples.fraud.Payments.PAYMENT;

/**
 * Scores every payment on arrival with the model's current weights, and feeds the outcomes back to
 * training — on the public job API. Keyed by user over {@link Payments#PAYMENT} and
 * {@link Payments#OUTCOME} (merged in event time):
 * <ul>
 *   <li>a payment: its {@link Features} from the user's earlier payments (mean amount over the last
 *   hour, count over the last 10 minutes, time since the previous one), scored by the model version
 *   pinned in {@link Payments#MODEL_PINS}, else the newest in {@link Payments#MODELS} (none yet:
 *   weights 0, score 0.5, version 0); the score goes to {@link Payments#SCORES} and a PREDICTION
 *   to the feedback log; the payment waits for its outcome up to the label timeout (event time);</li>
 *   <li>an outcome: the waiting payment's features, score and version go with the label to the
 *   feedback log as an OUTCOME — the trainer's input ({@link ModelTrainingJob}); an outcome with
 *   no waiting payment goes to {@link Payments#ORPHAN_OUTCOMES} with the reason.</li>
 * </ul>
 * The feedback is emitted exactly once per payment and outcome across restores. Which weights score
 * a payment depends on when the trainer published them (the dimension replicas are "latest
 * known"), so a payment replayed after a restore may be scored by a newer version than the first
 * time; the version is written beside every score. The one wall-clock reading — each prediction's
 * scoring lag, for monitoring — is data in the emitted record, so it differs on a replay; the
 * feedback log keeps the first run's record, and what reads the log sees one value.
 *
 * <p>{@link #withModelVersion} scores with one kept version instead — for a replay (Kappa) of past
 * payments through an older version beside the live job, so that a rollback is judged on data
 * before it is made.
 */
public final class FraudScoringJob implements StreamGridJob {
    public static final String NAME = "fraud-scoring";
    public static final String MODEL = "fraud";
    /** The parameter naming the one kept model version that scores. */
    public static final String MODEL_VERSION = "model-version";
    static final long ALLOWED_DISORDER_MS = 5_000;
    static final long ALLOWED_LATENESS_MS = 60_000;
    /** Payments older than this before the newest cannot be in a later payment's window: forgotten. */
    public static final long HORIZON_MS = Features.HOUR_MS + ALLOWED_DISORDER_MS + ALLOWED_LATENESS_MS;

    private final String model;
    private final double threshold;
    private final long labelTimeoutMs;
    /** The one version that scores; 0: the pinned or newest. */
    private final long fixedVersion;

    /** Model {@value #MODEL}, flagged from score 0.5, outcomes awaited for a day. */
    public FraudScoringJob() {
        this(MODEL, 0.5, 86_400_000);
    }

    public FraudScoringJob(final String model, final double threshold, final long labelTimeoutMs) {
        this(model, threshold, labelTimeoutMs, 0);
    }

    private FraudScoringJob(final String model, final double threshold, final long labelTimeoutMs, final long fixedVersion) {
        if (model == null || model.isEmpty() || model.length() > 32 || model.contains("@")) {
            throw new IllegalArgumentException("model name '" + model + "' must be 1-32 characters without @");
        }
        if (!(threshold >= 0 && threshold <= 1) || labelTimeoutMs < 1) {
            throw new IllegalArgumentException("threshold must be 0-1 and the label timeout positive, were " + threshold + ", "
                    + labelTimeoutMs);
        }
        this.model = model;
        this.threshold = threshold;
        this.labelTimeoutMs = labelTimeoutMs;
        this.fixedVersion = fixedVersion;
    }

    /**
     * This job scoring every payment with version {@code version} of the model, read from
     * {@link Payments#MODEL_VERSIONS}; a payment met while that version is not kept there fails the
     * job, naming it (it is suspended; nothing is scored with other weights).
     */
    public FraudScoringJob withModelVersion(final long version) {
        if (version < 1) {
            throw new IllegalArgumentException("model versions start at 1, was " + version);
        }
        return new FraudScoringJob(model, threshold, labelTimeoutMs, version);
    }

    /** {@value #MODEL_VERSION}: score with one kept version ({@link #withModelVersion}), e.g. to replay beside the live job. */
    @Override
    public List<JobParameter> parameters() {
        return List.of(new JobParameter(MODEL_VERSION, "score every payment with this kept model version (a whole number "
                + "from 1; 'model list' shows them), e.g. with 'job replay' to judge a rollback"));
    }

    @Override
    public StreamGridJob withParameters(final Map<String, String> values) {
        final String version = values.get(MODEL_VERSION);
        if (version == null) {
            return StreamGridJob.super.withParameters(values);
        }
        try {
            return withModelVersion(Long.parseLong(version.strip()));
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException(MODEL_VERSION + " is a whole number from 1, was '" + version + "'", e);
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException(MODEL_VERSION + ": " + e.getMessage(), e);
        }
    }

    @Override
    public KeyedJob<?> job() {
        return KeyedJob.<PaymentProfile>builder(NAME, PAYMENT).alsoReads(OUTCOME)
                .longKeyed(new Score(model, threshold, labelTimeoutMs, fixedVersion)).state(PaymentProfile.codec())
                .time(TimePolicy.of(ALLOWED_DISORDER_MS, ALLOWED_LATENESS_MS).withIdleTimeout(1_000))
                .reads(Payments.MODELS, Payments.MODEL_VERSIONS, Payments.MODEL_PINS)
                .writes(Payments.SCORES, Payments.ORPHAN_OUTCOMES).emits(FEEDBACK).build();
    }

    /** The weights that score now: the fixed version, else the pinned one, else the newest; null before the first is published. */
    static ModelVersion activeModel(final LongKeyContext<?> context, final String model, final long fixedVersion) {
        if (fixedVersion > 0) {
            final ModelVersion fixed = context.lookup(Payments.MODEL_VERSIONS, Payments.versionKey(model, fixedVersion));
            if (fixed == null) {
                throw new IllegalStateException("model " + model + " version " + fixedVersion + " is not kept in "
                        + Payments.MODEL_VERSIONS + ": score with a version `streamgrid model list " + model + "` shows");
            }
            return fixed;
        }
        final Long pinned = context.lookup(Payments.MODEL_PINS, model);
        final ModelVersion version = pinned == null ? null : context.lookup(Payments.MODEL_VERSIONS, Payments.versionKey(model, pinned));
        return version != null ? version : context.lookup(Payments.MODELS, model);
    }

    static final class Score implements LongKeyedFunction<PaymentProfile> {
        private static final SchemaLayout P = PAYMENT.layout();
        private static final int TXN = P.indexOf("txn");
        private static final int AMOUNT = P.indexOf("amount");
        private static final int CATEGORY = P.indexOf("merchant_category");
        private static final int OUTCOME_TXN = OUTCOME.layout().indexOf("txn");
        private static final int FRAUD = OUTCOME.layout().indexOf("fraud");

        private final String model;
        private final double threshold;
        private final long labelTimeoutMs;
        private final long fixedVersion;
        private transient double[] x;

        Score(final String model, final double threshold, final long labelTimeoutMs, final long fixedVersion) {
            this.model = model;
            this.threshold = threshold;
            this.labelTimeoutMs = labelTimeoutMs;
            this.fixedVersion = fixedVersion;
        }

        @Override
        public void onEvent(final SchemaRecord event, final LongKeyContext<PaymentProfile> context) {
            PaymentProfile profile = context.state();
            if (profile == null) {
                profile = new PaymentProfile();
                context.setState(profile);
            }
            if (event.layout().schema().name().equals(PAYMENT.name())) {
                payment(event, profile, context);
            } else {
                outcome(event.getLong(OUTCOME_TXN), event.getBoolean(FRAUD), profile, context);
            }
        }

        private void payment(final SchemaRecord event, final PaymentProfile profile, final LongKeyContext<PaymentProfile> context) {
            final long time = context.time();
            final long txn = event.getLong(TXN);
            final Features features = profile.features(time, event.getDouble(AMOUNT), event.getInt(CATEGORY));
            final ModelVersion active = activeModel(context, model, fixedVersion);
            if (x == null) {
                x = new double[Features.DIMENSIONS];
            }
            features.vector(x);
            final double score = active == null ? 0.5 : LogisticModel.score(active.weights(), x);
            final long version = active == null ? 0 : active.version();
            context.put(Payments.SCORES, txn, new FraudScore(context.longKey(), txn, time, features.amount(), score, version,
                    active != null && score >= threshold));
            feedback(context, Feedback.PREDICTION, time, txn, features, score, version, false,
                    Math.max(0, System.currentTimeMillis() - time));
            profile.add(time, features.amount(), HORIZON_MS);
            profile.pending().add(new PaymentProfile.Pending(txn, time, features, score, version));
            context.registerTimer(time + labelTimeoutMs);
        }

        private void outcome(final long txn, final boolean fraud, final PaymentProfile profile,
                             final LongKeyContext<PaymentProfile> context) {
            final PaymentProfile.Pending waiting = profile.takePending(txn);
            if (waiting == null) {
                context.put(Payments.ORPHAN_OUTCOMES, context.longKey() + "/" + txn, new OrphanOutcome(context.longKey(), txn,
                        context.time(), fraud, "no payment " + txn + " of this user waits for an outcome: unknown, labelled "
                        + "already, or older than the label timeout of " + labelTimeoutMs + " ms"));
                return;
            }
            feedback(context, Feedback.OUTCOME, context.time(), txn, waiting.features(), waiting.score(), waiting.modelVersion(), fraud,
                    0);
        }

        /** The payment's outcome did not come in time: it stops waiting; payments no window can reach are forgotten. */
        @Override
        public void onTimer(final long time, final LongKeyContext<PaymentProfile> context) {
            final PaymentProfile profile = context.state();
            profile.pending().removeIf(waiting -> waiting.ts() + labelTimeoutMs <= time);
            profile.trim(time - ALLOWED_LATENESS_MS - Features.HOUR_MS);
        }

        private void feedback(final LongKeyContext<PaymentProfile> context, final int kind, final long time, final long txn,
                              final Features f, final double score, final long version, final boolean fraud, final long lagMs) {
            final SchemaRecord out = context.newEvent(FEEDBACK);
            out.setString(Feedback.MODEL, model).setTimestamp(Feedback.TS, time).setEnumOrdinal(Feedback.KIND, kind)
                    .setLong(Feedback.USER, context.longKey()).setLong(Feedback.TXN, txn).setDouble(Feedback.AMOUNT, f.amount())
                    .setDouble(Feedback.AVG_AMOUNT, f.avgAmount1h()).setInt(Feedback.COUNT, f.count10m())
                    .setLong(Feedback.SINCE_PREVIOUS, f.sincePreviousMs()).setInt(Feedback.CATEGORY, f.merchantCategory())
                    .setDouble(Feedback.SCORE, score).setLong(Feedback.VERSION, version).setBoolean(Feedback.FRAUD, fraud)
                    .setLong(Feedback.SCORING_LAG, lagMs);
            context.emit(out);
        }
    }
}
