package io.streamgrid.examples.fraud;

import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.StateCodec;
import io.streamgrid.jobs.keyed.StreamGridJob;
import io.streamgrid.jobs.keyed.StringKeyContext;
import io.streamgrid.jobs.keyed.StringKeyedFunction;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.schema.SchemaRecord;

/**
 * Online learning on the public job API: keyed by model over the feedback log the scoring job
 * emits ({@link Payments#FEEDBACK}), every OUTCOME updates the model's logistic-regression weights
 * by one SGD step ({@link LogisticModel}) over the payment's features, in the log's order. The
 * weights are keyed state, so a restored job continues from its snapshot and replays the labels
 * after it: each label is learnt exactly once, and the weights equal an offline SGD over the same
 * labels in the same order.
 *
 * <p>Every {@code publishEvery} labels the weights become a new version: written to
 * {@link Payments#MODELS} (the newest, which the scoring job uses unless a version is pinned) and
 * {@link Payments#MODEL_VERSIONS} (the last {@code keepVersions} kept, for rollback and replay).
 * {@link Payments#TRAINING} holds the progress after every label. PREDICTION records are the
 * monitoring's, not learnt from.
 */
public final class ModelTrainingJob implements StreamGridJob {
    public static final String NAME = "model-training";

    private final double learningRate;
    private final double l2;
    private final int publishEvery;
    private final int keepVersions;

    /** Learning rate 0.05, L2 0.0001, a version every 100 labels, the last 100 versions kept. */
    public ModelTrainingJob() {
        this(0.05, 0.0001, 100, 100);
    }

    public ModelTrainingJob(final double learningRate, final double l2, final int publishEvery, final int keepVersions) {
        if (!(learningRate > 0) || !(l2 >= 0) || publishEvery < 1 || keepVersions < 1) {
            throw new IllegalArgumentException("learning rate must be positive, L2 not negative, publish-every and versions kept "
                    + "at least 1; were " + learningRate + ", " + l2 + ", " + publishEvery + ", " + keepVersions);
        }
        this.learningRate = learningRate;
        this.l2 = l2;
        this.publishEvery = publishEvery;
        this.keepVersions = keepVersions;
    }

    @Override
    public KeyedJob<?> job() {
        // Writers (the scoring job's partitions) append to the one feedback partition of a model at
        // their own pace, so event times there are out of order; no label may be set aside as late.
        return KeyedJob.<Model>builder(NAME, Payments.FEEDBACK).stringKeyed(new Learn(learningRate, l2, publishEvery, keepVersions))
                .state(StateCodec.derived(Model.class)).time(TimePolicy.of(0, 10 * 365L * 86_400_000))
                .writes(Payments.MODELS, Payments.MODEL_VERSIONS, Payments.TRAINING).build();
    }

    /** A model being trained: weights, labels learnt, versions published, labels since the last. */
    static final class Model {
        final double[] weights;
        long labels;
        long version;
        int sincePublished;

        Model(final double[] weights) {
            this.weights = weights;
        }

        /** For its derived snapshot codec, which then sets every field. */
        private Model() {
            this(new double[0]);
        }
    }

    static final class Learn implements StringKeyedFunction<Model> {
        private final double learningRate;
        private final double l2;
        private final int publishEvery;
        private final int keepVersions;
        private transient double[] x;

        Learn(final double learningRate, final double l2, final int publishEvery, final int keepVersions) {
            this.learningRate = learningRate;
            this.l2 = l2;
            this.publishEvery = publishEvery;
            this.keepVersions = keepVersions;
        }

        @Override
        public void onEvent(final SchemaRecord feedback, final StringKeyContext<Model> context) {
            if (feedback.getEnumOrdinal(Feedback.KIND) != Feedback.OUTCOME) {
                return;
            }
            Model model = context.state();
            if (model == null) {
                model = new Model(new double[Features.DIMENSIONS]);
                context.setState(model);
            }
            if (x == null) {
                x = new double[Features.DIMENSIONS];
            }
            Feedback.features(feedback).vector(x);
            LogisticModel.learn(model.weights, x, feedback.getBoolean(Feedback.FRAUD), learningRate, l2);
            model.labels++;
            final String name = context.stringKey();
            if (++model.sincePublished == publishEvery) {
                model.sincePublished = 0;
                model.version++;
                final ModelVersion published = new ModelVersion(name, model.version, model.weights.clone(), model.labels,
                        context.time());
                context.put(Payments.MODEL_VERSIONS, Payments.versionKey(name, model.version), published);
                context.put(Payments.MODELS, name, published);
                if (model.version > keepVersions) {
                    context.remove(Payments.MODEL_VERSIONS, Payments.versionKey(name, model.version - keepVersions));
                }
            }
            // A copy: the value is serialized when the state writer's batch goes out, after later labels.
            context.put(Payments.TRAINING, name, new TrainingStatus(name, model.labels, model.version, model.weights.clone()));
        }
    }
}
