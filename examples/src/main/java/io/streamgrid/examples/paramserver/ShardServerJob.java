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
 * <p>Synchronously ({@link Staleness#SYNCHRONOUS}) a shard holds a round's gradients by worker until
 * every worker's last update of the round came (or the worker finished), then applies them in worker
 * order — the same sums in the same order however the updates interleaved in the log — and publishes
 * the shard at once with its new round, for the workers waiting on it. Its updates are never late:
 * a worker holding examples may still push after the end of its input announced the end of time.
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
                // No timers but the end of the input's: event time only has to let no update be late, whichever
                // worker it came from and when (synchronous workers push after the end of their input).
                .time(TimePolicy.of(0, Long.MAX_VALUE))
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
        /** Synchronous training: the rounds applied; per worker, its gradients of the next round by slot, its updates in it,
         *  the rounds it marked and whether it finished. */
        long round;
        double[] roundGradients;
        long[] roundUpdates;
        long[] roundsMarked;
        boolean[] finished;

        Shard(final ParameterModel model) {
            weights = new double[model.shardWidth()];
            appliedByWorker = new long[model.maxWorkers()];
            stalenessCounts = new long[ShardValue.STALENESS_BUCKETS];
            if (model.staleness().synchronous()) {
                roundGradients = new double[model.maxWorkers() * model.shardWidth()];
                roundUpdates = new long[model.maxWorkers()];
                roundsMarked = new long[model.maxWorkers()];
                finished = new boolean[model.maxWorkers()];
            }
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
            if (model.staleness().synchronous()) {
                takeIntoRound(shard, (int) worker, update, context);
            } else {
                apply(shard, (int) worker, update, context);
            }
            context.setState(shard);
        }

        /** Asynchronously: the update applied now, at the rate its staleness gives. */
        private void apply(final Shard shard, final int worker, final SchemaRecord update, final LongKeyContext<Shard> context) {
            final long tau = Math.max(0, ShardValue.othersSince(shard.version, shard.appliedByWorker[worker],
                    update.get(TrainingEvents.UPDATE_BASE), update.get(TrainingEvents.UPDATE_OWN_IN_BASE)));
            final double rate = model.learningRate() * model.staleness().rateFactor(tau);
            final double[] weights = shard.weights;
            SparseGradient.decode(update.get(TrainingEvents.UPDATE_GRADIENT), (slot, gradient) -> weights[slot] -= rate * gradient);
            shard.version++;
            shard.appliedByWorker[worker]++;
            shard.stalenessCounts[ShardValue.bucketOf(tau)]++;
            if (!shard.publishDue) {
                shard.publishDue = true;
                context.registerProcessingTimer(System.currentTimeMillis() + model.publishEveryMs());
            }
        }

        /** Synchronously: the update held in its worker's part of the round; the round applied once every worker's is in. */
        private void takeIntoRound(final Shard shard, final int worker, final SchemaRecord update, final LongKeyContext<Shard> context) {
            final long round = update.get(TrainingEvents.UPDATE_ROUND);
            if (round == TrainingEvents.FINISHED) {
                shard.finished[worker] = true;
            } else {
                final double[] gradients = shard.roundGradients;
                final int offset = worker * model.shardWidth();
                SparseGradient.decode(update.get(TrainingEvents.UPDATE_GRADIENT), (slot, gradient) -> gradients[offset + slot] += gradient);
                shard.roundUpdates[worker]++;
                if (round > 0) {
                    shard.roundsMarked[worker] = round;
                }
            }
            boolean applied = false;
            while (roundComplete(shard)) {
                applyRound(shard);
                applied = true;
            }
            if (applied) {
                publish(shard, context);
            }
        }

        /** Every worker marked the shard's next round or finished, and one at least marked it. */
        private static boolean roundComplete(final Shard shard) {
            boolean marked = false;
            for (int worker = 0; worker < shard.roundsMarked.length; worker++) {
                if (shard.roundsMarked[worker] > shard.round) {
                    marked = true;
                } else if (!shard.finished[worker]) {
                    return false;
                }
            }
            return marked;
        }

        private void applyRound(final Shard shard) {
            final int width = model.shardWidth();
            for (int worker = 0; worker < shard.roundUpdates.length; worker++) {
                for (int slot = 0; slot < width; slot++) {
                    final double gradient = shard.roundGradients[worker * width + slot];
                    if (gradient != 0) {
                        shard.weights[slot] -= model.learningRate() * gradient;
                        shard.roundGradients[worker * width + slot] = 0;
                    }
                }
                shard.version += shard.roundUpdates[worker];
                shard.appliedByWorker[worker] += shard.roundUpdates[worker];
                shard.stalenessCounts[0] += shard.roundUpdates[worker]; // every update of a round was computed from the round before
                shard.roundUpdates[worker] = 0;
            }
            shard.round++;
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
            if (shard != null) {
                publish(shard, context);
                context.setState(shard);
            }
        }

        private void publish(final Shard shard, final LongKeyContext<Shard> context) {
            shard.publishDue = false;
            // Copies: the value is serialized when the state writer's batch goes out, after later updates.
            context.put(model.shardsMap(), context.longKey(), new ShardValue(context.longKey(), shard.version, shard.weights.clone(),
                    shard.appliedByWorker.clone(), shard.stalenessCounts.clone(), shard.round));
        }
    }
}
