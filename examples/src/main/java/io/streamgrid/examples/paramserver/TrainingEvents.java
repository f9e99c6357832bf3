package io.streamgrid.examples.paramserver;

import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.TypedField;

/**
 * The parameter server's two logs. Labelled examples are keyed by the worker that learns from them
 * (each worker trains on its own part of the stream); updates are keyed by shard, so each shard's
 * updates meet on the member that owns the shard.
 */
public final class TrainingEvents {
    /** A labelled example: its active binary features (besides the bias) as hexadecimal ids, comma-separated. */
    public static final EventSchema EXAMPLE = EventSchema.builder("ps-example")
            .longKey("worker")
            .eventTime("ts")
            .string("features", 512)
            .bool("label")
            .build();

    /**
     * A worker's update of one shard: the sum of its gradients over its last steps ({@link SparseGradient};
     * up to 30 features — more go out as several updates),
     * computed from its copy of the shard fetched at version {@code base}, which then held
     * {@code own_in_base} of the worker's own updates (plus the worker's steps since). In synchronous
     * training ({@link Staleness#SYNCHRONOUS}) {@code round} marks a worker's last update of the shard
     * in a round — the round's number from 1, or {@link #FINISHED} (no gradient) when the worker has
     * no more rounds; 0 on every other update.
     */
    public static final EventSchema UPDATE = EventSchema.builder("ps-update")
            .longKey("shard")
            .eventTime("ts")
            .int64("worker")
            .int64("base")
            .int64("own_in_base")
            .int32("steps")
            .string("gradient", SparseGradient.MAX_CHARACTERS)
            .int64("round")
            .build();

    /** An update's {@code round} when its worker has no more rounds: it no longer holds the others back. */
    public static final long FINISHED = Long.MAX_VALUE;

    /** An example to score with the model as published ({@link ScoringJob}): its features as in {@link #EXAMPLE}. */
    public static final EventSchema SCORE_REQUEST = EventSchema.builder("ps-score-request")
            .longKey("request")
            .eventTime("ts")
            .string("features", 512)
            .build();

    static final TypedField.StringField FEATURES = EXAMPLE.stringField("features");
    static final TypedField.StringField REQUEST_FEATURES = SCORE_REQUEST.stringField("features");
    static final TypedField.BooleanField LABEL = EXAMPLE.booleanField("label");
    static final TypedField.LongField UPDATE_WORKER = UPDATE.longField("worker");
    static final TypedField.LongField UPDATE_BASE = UPDATE.longField("base");
    static final TypedField.LongField UPDATE_OWN_IN_BASE = UPDATE.longField("own_in_base");
    static final TypedField.IntField UPDATE_STEPS = UPDATE.intField("steps");
    static final TypedField.StringField UPDATE_GRADIENT = UPDATE.stringField("gradient");
    static final TypedField.LongField UPDATE_ROUND = UPDATE.longField("round");

    private TrainingEvents() {
    }

    /** {@code features} (ids ≥ 1; the bias is implied) as the example's text. */
    public static String featuresText(final int[] features) {
        final StringBuilder text = new StringBuilder(features.length * 4);
        for (final int feature : features) {
            if (text.length() > 0) {
                text.append(',');
            }
            text.append(Integer.toHexString(feature));
        }
        return text.toString();
    }

    /**
     * Reads an example's features text ({@link #featuresText}) into {@code into} from index 1 (index
     * 0: the bias, feature 0) and returns how many there are with the bias, growing {@code into} when
     * needed (the array used is {@code into[0]} afterwards: a holder).
     *
     * @throws IllegalArgumentException when a feature is not a hexadecimal id from 1 to {@code features − 1}
     */
    public static int parseFeatures(final String text, final int features, final int[][] into) {
        int[] ids = into[0];
        int count = 0;
        ids[count++] = 0;
        int start = 0;
        while (start < text.length()) {
            int end = text.indexOf(',', start);
            end = end < 0 ? text.length() : end;
            final int feature = Integer.parseInt(text, start, end, 16);
            if (feature < 1 || feature >= features) {
                throw new IllegalArgumentException("feature " + feature + " of an example is outside 1 to " + (features - 1));
            }
            if (count == ids.length) {
                ids = java.util.Arrays.copyOf(ids, ids.length * 2);
                into[0] = ids;
            }
            ids[count++] = feature;
            start = end + 1;
        }
        return count;
    }
}
