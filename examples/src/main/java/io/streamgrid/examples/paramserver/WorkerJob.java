package io.streamgrid.examples.paramserver;

import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.LongKeyContext;
import io.streamgrid.jobs.keyed.LongKeyedFunction;
import io.streamgrid.jobs.keyed.StateCodec;
import io.streamgrid.jobs.keyed.StreamGridJob;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.schema.SchemaRecord;

/**
 * The parameter server's workers (Downpour SGD): a keyed job over the example log, one key per
 * worker, so each worker learns from its own part of the stream in its order, and workers on
 * different partitions run in parallel without waiting for each other. A worker keeps its own copy
 * of the model and takes one SGD step on it per example; every {@code fetchEvery} steps it fetches
 * the shards from its member's replica of the shard map ({@link ParameterModel#shardsMap()}), and
 * every {@code pushEvery} steps it emits, per shard it touched, the sum of its gradients since into
 * the update log ({@link TrainingEvents#UPDATE}) for the server ({@link ShardServerJob}).
 *
 * <p>A fetched shard replaces the worker's copy when it holds updates of other workers the copy
 * lacks (a lone worker's copy is always ahead of the server's, so it keeps it); the worker's steps
 * not pushed yet are applied again on top, while its pushed updates the server had not applied
 * then are missing from the copy until a later fetch (as in Downpour). An update names its base —
 * the version fetched and how many of the worker's own updates it held — so the server knows how
 * many other workers' updates the worker had not seen: the update's staleness (0 for a lone worker).
 *
 * <p>Exactly once: updates are emitted events, so a worker restored from its snapshot emits again
 * what it emitted after it and the server's reader drops those repeats — each update is applied
 * once. What the first run emitted counts: a restored worker fetches the shards as they are then, so
 * its repeats may carry other gradients; they are dropped all the same (asynchronous SGD makes no
 * claim on which copy an update came from). Progress goes to {@link ParameterModel#workersMap()} at
 * every push. Steps left at the end of the input (fewer than {@code pushEvery}) are pushed then.
 */
public final class WorkerJob implements StreamGridJob {
    private final ParameterModel model;

    public WorkerJob(final ParameterModel model) {
        this.model = model;
    }

    public static String name(final ParameterModel model) {
        return "ps-worker-" + model.name();
    }

    @Override
    public KeyedJob<?> job() {
        return KeyedJob.<Worker>builder(name(model), TrainingEvents.EXAMPLE)
                .longKeyed(new Learn(model))
                .state(StateCodec.derived(Worker.class))
                // No timers but the end of the input's: event time only has to let nothing be late.
                .time(TimePolicy.of(0, 10 * 365L * 86_400_000))
                .reads(model.shardsMap())
                .writes(model.workersMap())
                .emits(TrainingEvents.UPDATE)
                .build();
    }

    /** A worker's copy of the model and where it stands against the server. */
    static final class Worker {
        double[] weights;
        /** Per shard: the version of the shard last fetched (0: none yet). */
        long[] base;
        /** Per shard: how many of this worker's updates the version fetched held. */
        long[] ownInBase;
        /** Per feature: gradients summed since the last push. */
        double[] pending;
        /** Per shard: 1 when it has gradients not pushed. */
        int[] touched;
        long steps;
        long updatesPushed;
        /** The event time of the latest example: its updates' time (also of those pushed at the end). */
        long latestTime;
        int sincePush;

        Worker(final ParameterModel model) {
            weights = new double[model.features()];
            base = new long[model.shards()];
            ownInBase = new long[model.shards()];
            pending = new double[model.features()];
            touched = new int[model.shards()];
        }

        /** For its derived snapshot codec, which then sets every field. */
        private Worker() {
        }
    }

    static final class Learn implements LongKeyedFunction<Worker> {
        /** The end of the input: the steps left are pushed when the watermark gets there. */
        private static final long AT_THE_END = Long.MAX_VALUE / 2;
        private final ParameterModel model;
        private transient int[][] features;
        private transient int[] slots;
        private transient double[] values;

        Learn(final ParameterModel model) {
            this.model = model;
        }

        @Override
        public void onEvent(final SchemaRecord example, final LongKeyContext<Worker> context) {
            final long id = context.longKey();
            if (id < 0 || id >= model.maxWorkers()) {
                throw new IllegalArgumentException("worker " + id + " of model " + model.name() + " is outside 0 to "
                        + (model.maxWorkers() - 1) + " (ParameterModel.maxWorkers)");
            }
            if (features == null) {
                features = new int[][]{new int[64]};
                slots = new int[model.shardWidth()];
                values = new double[model.shardWidth()];
            }
            Worker worker = context.state();
            if (worker == null) {
                worker = new Worker(model);
                context.registerTimer(AT_THE_END);
            }
            if (worker.steps % model.fetchEvery() == 0) {
                fetch(worker, id, context);
            }
            final int count = TrainingEvents.parseFeatures(example.get(TrainingEvents.FEATURES), model.features(), features);
            final int[] ids = features[0];
            final double gradient = LogisticRegression.predict(worker.weights, ids, count) - (example.get(TrainingEvents.LABEL) ? 1 : 0);
            for (int i = 0; i < count; i++) {
                final int feature = ids[i];
                worker.pending[feature] += gradient;
                worker.weights[feature] -= model.learningRate() * gradient;
                worker.touched[model.shardOf(feature)] = 1;
            }
            worker.steps++;
            worker.latestTime = Math.max(worker.latestTime, example.eventTime());
            if (++worker.sincePush == model.pushEvery()) {
                push(worker, id, context);
            }
            context.setState(worker);
        }

        @Override
        public void onTimer(final long time, final LongKeyContext<Worker> context) {
            final Worker worker = context.state();
            if (worker != null && worker.sincePush > 0) {
                push(worker, context.longKey(), context);
                context.setState(worker);
            }
        }

        private void fetch(final Worker worker, final long id, final LongKeyContext<Worker> context) {
            for (int shard = 0; shard < model.shards(); shard++) {
                final ShardValue value = context.lookup(model.shardsMap(), (long) shard);
                if (value == null) {
                    continue;
                }
                final long ownInValue = value.appliedByWorker()[(int) id];
                if (ShardValue.othersSince(value.version(), ownInValue, worker.base[shard], worker.ownInBase[shard]) <= 0) {
                    continue; // no update of another worker that the copy lacks
                }
                ParameterServer.adopt(model, value, worker.weights, worker.pending);
                worker.base[shard] = value.version();
                worker.ownInBase[shard] = ownInValue;
            }
        }

        private void push(final Worker worker, final long id, final LongKeyContext<Worker> context) {
            for (int shard = 0; shard < model.shards(); shard++) {
                if (worker.touched[shard] == 0) {
                    continue;
                }
                int count = 0;
                for (int slot = 0; slot < model.shardWidth(); slot++) {
                    final int feature = model.featureOf(shard, slot);
                    if (feature < model.features() && worker.pending[feature] != 0) {
                        slots[count] = slot;
                        values[count++] = worker.pending[feature];
                        worker.pending[feature] = 0;
                    }
                }
                worker.touched[shard] = 0;
                // In updates of at most SparseGradient.MAX_ENTRIES; none for gradients that summed to zero.
                for (int from = 0; from < count; from += SparseGradient.MAX_ENTRIES) {
                    final int entries = Math.min(SparseGradient.MAX_ENTRIES, count - from);
                    final SchemaRecord update = context.newEvent(TrainingEvents.UPDATE);
                    update.setLong(0, shard).setTimestamp(1, worker.latestTime)
                            .set(TrainingEvents.UPDATE_WORKER, id)
                            .set(TrainingEvents.UPDATE_BASE, worker.base[shard])
                            .set(TrainingEvents.UPDATE_OWN_IN_BASE, worker.ownInBase[shard])
                            .set(TrainingEvents.UPDATE_STEPS, worker.sincePush)
                            .set(TrainingEvents.UPDATE_GRADIENT, SparseGradient.encode(slots, values, from, entries));
                    context.emit(update);
                    worker.updatesPushed++;
                }
            }
            worker.sincePush = 0;
            context.put(model.workersMap(), id, new WorkerProgress(id, worker.steps, worker.updatesPushed));
        }
    }
}
