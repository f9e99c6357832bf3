package io.streamgrid.examples.fraud;

import io.streamgrid.jobs.schema.EventSchema;

/**
 * The schemas and maps of the fraud example. Payments and their outcomes are keyed by user and
 * co-partitioned (load both logs with the same partition count); the feedback stream is keyed by
 * model name, so one trainer sees every label of a model in one order — the order of its log.
 */
public final class Payments {
    /** A card payment: who, which payment, how much, at what kind of merchant (0–7). */
    public static final EventSchema PAYMENT = EventSchema.builder("payment")
            .longKey("user")
            .eventTime("ts")
            .int64("txn")
            .float64("amount")
            .int32("merchant_category")
            .build();

    /** The label of a payment, known later (a chargeback, a confirmation): fraud or not. */
    public static final EventSchema OUTCOME = EventSchema.builder("payment-outcome")
            .longKey("user")
            .eventTime("ts")
            .int64("txn")
            .bool("fraud")
            .build();

    /**
     * What the scoring job emits, the trainer's input: every prediction (at the payment's time) and
     * every outcome (at the outcome's time) with the payment's features, its score and the model
     * version that scored it; a prediction also carries its scoring lag (the wall clock when it was
     * scored minus the payment's event time, at least 0). Replayable like any log.
     */
    public static final EventSchema FEEDBACK = EventSchema.builder("fraud-feedback")
            .stringKey("model", 32)
            .eventTime("ts")
            .enumOf("kind", "PREDICTION", "OUTCOME")
            .int64("user")
            .int64("txn")
            .float64("amount")
            .float64("avg_amount_1h")
            .int32("count_10m")
            .int64("since_previous_ms")
            .int32("merchant_category")
            .float64("score")
            .int64("model_version")
            .bool("fraud")
            .int64("scoring_lag_ms")
            .build();

    /** Per payment (key: txn): its score ({@link FraudScore}). */
    public static final String SCORES = "state.fraud-scores";
    /** Outcomes without a payment waiting for them (key: user/txn), with the reason. */
    public static final String ORPHAN_OUTCOMES = "state.fraud-orphan-outcomes";
    /** Per model (key: name): the newest published version ({@link ModelVersion}). */
    public static final String MODELS = "dim.models";
    /** Per model and version (key: name@version): the versions kept ({@link ModelVersion}). */
    public static final String MODEL_VERSIONS = "dim.model-versions";
    /** Per model (key: name): the version pinned for scoring (a Long), when one is; absent: the newest. */
    public static final String MODEL_PINS = "dim.model-pins";
    /** Per model (key: name): the trainer's progress and current weights ({@link TrainingStatus}). */
    public static final String TRAINING = "state.model-training";

    /** Per model and window (key: name@windowEnd): the model's quality over the window ({@link ModelWindow}). */
    public static final String MONITORING = "state.model-monitoring";
    /** Per model and window (key: name@windowEnd): drift beyond the bounds ({@link DriftAlert}). */
    public static final String DRIFT_ALERTS = "state.model-alerts";

    private Payments() {
    }

    /** The key of a model's window in {@link #MONITORING} and {@link #DRIFT_ALERTS}. */
    public static String windowKey(final String model, final long windowEnd) {
        return model + "@" + windowEnd;
    }

    /** The key of a model version in {@link #MODEL_VERSIONS}. */
    public static String versionKey(final String model, final long version) {
        return model + "@" + version;
    }
}
