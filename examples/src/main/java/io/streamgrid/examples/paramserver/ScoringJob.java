package io.streamgrid.examples.paramserver;

import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.LongKeyContext;
import io.streamgrid.jobs.keyed.LongKeyedFunction;
import io.streamgrid.jobs.keyed.StateCodec;
import io.streamgrid.jobs.keyed.StreamGridJob;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.schema.SchemaRecord;

/**
 * Scoring with the model the parameter server publishes: a keyed job over
 * {@link TrainingEvents#SCORE_REQUEST} that reads the model's shards from its member's replica of
 * {@link ParameterModel#shardsMap()} — the versions the server published, milliseconds behind it —
 * and writes each request's {@link Score} to {@link ParameterModel#scoresMap()}, stamped with the
 * model version it used: the updates its shards held, and in synchronous training the round. A
 * request scored before any shard was published scores with zero weights (version 0).
 *
 * <p>Each score reads every shard once at the request's processing: one version of each, so with
 * synchronous training a score whose {@code round} is r used the model after round r exactly
 * whenever no shard had taken a later round yet (the rounds of the shards read are all r).
 */
public final class ScoringJob implements StreamGridJob {
    private final ParameterModel model;

    public ScoringJob(final ParameterModel model) {
        this.model = model;
    }

    public static String name(final ParameterModel model) {
        return "ps-scoring-" + model.name();
    }

    @Override
    public KeyedJob<?> job() {
        return KeyedJob.<Void>builder(name(model), TrainingEvents.SCORE_REQUEST)
                .longKeyed(new ScoreRequest(model))
                .state(StateCodec.none())
                .time(TimePolicy.of(0, Long.MAX_VALUE))
                .reads(model.shardsMap())
                .writes(model.scoresMap())
                .build();
    }

    static final class ScoreRequest implements LongKeyedFunction<Void> {
        private final ParameterModel model;
        private transient int[][] features;

        ScoreRequest(final ParameterModel model) {
            this.model = model;
        }

        @Override
        public void onEvent(final SchemaRecord request, final LongKeyContext<Void> context) {
            if (features == null) {
                features = new int[][]{new int[64]};
            }
            final int count = TrainingEvents.parseFeatures(request.get(TrainingEvents.REQUEST_FEATURES), model.features(), features);
            final ShardValue[] shards = new ShardValue[model.shards()];
            long updates = 0;
            long round = Long.MAX_VALUE;
            for (int shard = 0; shard < shards.length; shard++) {
                shards[shard] = context.lookup(model.shardsMap(), (long) shard);
                updates += shards[shard] == null ? 0 : shards[shard].version();
                round = Math.min(round, shards[shard] == null ? 0 : shards[shard].round());
            }
            double margin = 0;
            for (int i = 0; i < count; i++) {
                final int feature = features[0][i];
                final ShardValue shard = shards[model.shardOf(feature)];
                margin += shard == null ? 0 : shard.weights()[model.slotOf(feature)];
            }
            context.put(model.scoresMap(), context.longKey(), new Score(context.longKey(), 1.0 / (1.0 + Math.exp(-margin)), updates, round));
        }
    }
}
