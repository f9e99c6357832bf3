package io.streamgrid.examples.fraud;

import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;

/** Field positions of {@link Payments#FEEDBACK} records, and the features one carries. */
public final class Feedback {
    private static final SchemaLayout L = Payments.FEEDBACK.layout();
    public static final int MODEL = L.indexOf("model");
    public static final int TS = L.indexOf("ts");
    public static final int KIND = L.indexOf("kind");
    public static final int USER = L.indexOf("user");
    public static final int TXN = L.indexOf("txn");
    public static final int AMOUNT = L.indexOf("amount");
    public static final int AVG_AMOUNT = L.indexOf("avg_amount_1h");
    public static final int COUNT = L.indexOf("count_10m");
    public static final int SINCE_PREVIOUS = L.indexOf("since_previous_ms");
    public static final int CATEGORY = L.indexOf("merchant_category");
    public static final int SCORE = L.indexOf("score");
    public static final int VERSION = L.indexOf("model_version");
    public static final int FRAUD = L.indexOf("fraud");
    public static final int SCORING_LAG = L.indexOf("scoring_lag_ms");
    /** {@link #KIND} ordinals. */
    public static final int PREDICTION = 0;
    public static final int OUTCOME = 1;

    private Feedback() {
    }

    public static Features features(final SchemaRecord feedback) {
        return new Features(feedback.getDouble(AMOUNT), feedback.getDouble(AVG_AMOUNT), feedback.getInt(COUNT),
                feedback.getLong(SINCE_PREVIOUS), feedback.getInt(CATEGORY));
    }
}
