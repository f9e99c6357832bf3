package io.streamgrid.examples.paramserver;

import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.LongKeyContext;
import io.streamgrid.jobs.keyed.LongKeyedFunction;
import io.streamgrid.jobs.keyed.StateCodec;
import io.streamgrid.jobs.keyed.StreamGridJob;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.schema.SchemaRecord;

/**
 * The parameter server: a keyed job over the update log, one key per shard, so a shard's updates are
 * applied one at a time on the member that owns the shard's partition, in the order they arrive
 * there, each atomically with the shard's version, its per-worker counts and its staleness counts
 * (keyed state, in the job's snapshots). An update of staleness τ (the updates of other workers
 * the shard took since the version its worker had fetched) is applied at the learning rate
 * times {@link Staleness#rateFactor}. A changed shard is published to {@link ParameterModel#shardsMap()}
 * for the workers to fetch and for scoring at most every {@code publishEveryMs} (a processing-time
 * timer), and once more when the input ended.
 *
 * <p>Exactly once: the update log's reader drops the repeats a restored worker emits, and a restored
 * server re-applies from its snapshot the updates after it, in the same order (the log's), so each
 * update changes the shard once and the shard after a failure is the shard of a run without it.
 */
public final class ShardServerJob implements StreamGridJob {
    private final ParameterModel model;

    public ShardServerJob(final ParameterModel model) {
        this.model = model;
    }

    public static String name(final ParameterModel model) {
        return "ps-server-" + model.name();
    }

    @Override
    public KeyedJob<?> job() {
        return KeyedJob.<Shard>builder(name(model), TrainingEvents.UPDATE)
                .longKeyed(new Apply(model))
                .state(StateCodec.derived(Shard.class))
                // No timers: event time only has to let no update be late, whichever worker it came from.
                .time(TimePolicy.of(0, 10 * 365L * 86_400_000))
                .writes(model.shardsMap())
                .build();
    }

    /** A shard: its weights by slot, its version (updates applied), per worker its updates applied, and staleness counts. */
    static final class Shard {
        double[] weights;
        long version;
        long[] appliedByWorker;
        long[] stalenessCounts;
        /** A publish is due (its processing-time timer registered). */
        boolean publishDue;

        Shard(final ParameterModel model) {
            weights = new double[model.shardWidth()];
            appliedByWorker = new long[model.maxWorkers()];
            stalenessCounts = new long[ShardValue.STALENESS_BUCKETS];
        }

        /** For its derived snapshot codec, which then sets every field. */
        private Shard() {
        }
    }

    static final class Apply implements LongKeyedFunction<Shard> {
        /** The end of the input: the last publish. */
        private static final long AT_THE_END = Long.MAX_VALUE / 2;
        private final ParameterModel model;

        Apply(final ParameterModel model) {
            this.model = model;
        }

        @Override
        public void onEvent(final SchemaRecord update, final LongKeyContext<Shard> context) {
            final long worker = update.get(TrainingEvents.UPDATE_WORKER);
            final long shardId = context.longKey();
            if (shardId < 0 || shardId >= model.shards() || worker < 0 || worker >= model.maxWorkers()) {
                throw new IllegalArgumentException("an update of shard " + shardId + " by worker " + worker + " does not fit model "
                        + model.name() + " (" + model.shards() + " shards, " + model.maxWorkers() + " workers)");
            }
            Shard shard = context.state();
            if (shard == null) {
                shard = new Shard(model);
                context.registerTimer(AT_THE_END);
            }
            final long tau = Math.max(0, ShardValue.othersSince(shard.version, shard.appliedByWorker[(int) worker],
                    update.get(TrainingEvents.UPDATE_BASE), update.get(TrainingEvents.UPDATE_OWN_IN_BASE)));
            final double rate = model.learningRate() * model.staleness().rateFactor(tau);
            final double[] weights = shard.weights;
            SparseGradient.decode(update.get(TrainingEvents.UPDATE_GRADIENT), (slot, gradient) -> weights[slot] -= rate * gradient);
            shard.version++;
            shard.appliedByWorker[(int) worker]++;
            shard.stalenessCounts[ShardValue.bucketOf(tau)]++;
            if (!shard.publishDue) {
                shard.publishDue = true;
                context.registerProcessingTimer(System.currentTimeMillis() + model.publishEveryMs());
            }
            context.setState(shard);
        }

        @Override
        public void onProcessingTimer(final long wallClockMs, final LongKeyContext<Shard> context) {
            publish(context);
        }

        @Override
        public void onTimer(final long time, final LongKeyContext<Shard> context) {
            publish(context);
        }

        private void publish(final LongKeyContext<Shard> context) {
            final Shard shard = context.state();
            if (shard == null) {
                return;
            }
            shard.publishDue = false;
            context.setState(shard);
            // Copies: the value is serialized when the state writer's batch goes out, after later updates.
            context.put(model.shardsMap(), context.longKey(), new ShardValue(context.longKey(), shard.version, shard.weights.clone(),
                    shard.appliedByWorker.clone(), shard.stalenessCounts.clone()));
        }
    }
}
