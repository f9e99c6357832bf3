package io.streamgrid.examples.paramserver;

import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.LongKeyContext;
import io.streamgrid.jobs.keyed.LongKeyedFunction;
import io.streamgrid.jobs.keyed.StateCodec;
import io.streamgrid.jobs.keyed.StreamGridJob;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.schema.SchemaRecord;

import java.util.Arrays;

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
 * <p>Synchronously ({@link Staleness#SYNCHRONOUS}) a push ends the worker's round: it goes to every
 * shard (an update without gradient to a shard not touched), its last update of each shard marked
 * with the round; the worker then holds the examples that come (in its state) and looks at the
 * replica every millisecond (a processing-time timer) until every shard took the round, adopts the
 * shards and learns from the held examples. It does not fetch between pushes. When its input ends
 * it pushes its last steps and tells every shard it has finished.
 *
 * <p>Exactly once: updates are emitted events, so a worker restored from its snapshot emits again
 * what it emitted after it and the server's reader drops those repeats — each update is applied
 * once. What the first run emitted counts: a restored worker fetches the shards as they are then, so
 * its repeats may carry other gradients; they are dropped all the same (asynchronous SGD makes no
 * claim on which copy an update came from; synchronous rounds start from the same model however
 * late the worker looks). Progress goes to {@link ParameterModel#workersMap()} at every push. Steps
 * left at the end of the input (fewer than {@code pushEvery}) are pushed then.
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
        /** Synchronous training: the rounds pushed; waiting for the last one to be taken by every shard; the input ended. */
        long round;
        boolean waiting;
        boolean ended;
        boolean finished;
        /** Synchronous training: the examples that came while waiting, in order — their features (with the bias) one after another. */
        HeldExamples held;

        Worker(final ParameterModel model) {
            weights = new double[model.features()];
            base = new long[model.shards()];
            ownInBase = new long[model.shards()];
            pending = new double[model.features()];
            touched = new int[model.shards()];
            held = new HeldExamples();
        }

        /** For its derived snapshot codec, which then sets every field. */
        private Worker() {
        }
    }

    /** Examples a synchronous worker holds while it waits for a round: their features one after another, labels and times. */
    static final class HeldExamples {
        int[] features = new int[64];
        int[] ends = new int[8];
        boolean[] labels = new boolean[8];
        long[] times = new long[8];
        int count;
        /** The first not learnt yet. */
        int next;

        void add(final int[] ids, final int length, final boolean label, final long time) {
            final int start = count == 0 ? 0 : ends[count - 1];
            if (start + length > features.length) {
                features = Arrays.copyOf(features, Math.max(features.length * 2, start + length));
            }
            if (count == ends.length) {
                ends = Arrays.copyOf(ends, count * 2);
                labels = Arrays.copyOf(labels, count * 2);
                times = Arrays.copyOf(times, count * 2);
            }
            System.arraycopy(ids, 0, features, start, length);
            ends[count] = start + length;
            labels[count] = label;
            times[count++] = time;
        }

        int start(final int example) {
            return example == 0 ? 0 : ends[example - 1];
        }

        /** Forgets the examples learnt, moving those left to the front. */
        void dropLearnt() {
            if (next == 0) {
                return;
            }
            final int from = start(next);
            final int remaining = count - next;
            System.arraycopy(features, from, features, 0, ends[count - 1] - from);
            for (int i = 0; i < remaining; i++) {
                ends[i] = ends[next + i] - from;
                labels[i] = labels[next + i];
                times[i] = times[next + i];
            }
            count = remaining;
            next = 0;
        }
    }

    static final class Learn implements LongKeyedFunction<Worker> {
        /** The end of the input: the steps left are pushed when the watermark gets there. */
        private static final long AT_THE_END = Long.MAX_VALUE / 2;
        /** How often a waiting synchronous worker looks whether its round was taken. */
        private static final long WAIT_POLL_MS = 1;
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
            Worker worker = context.state();
            if (worker == null) {
                worker = new Worker(model);
                context.registerTimer(AT_THE_END);
            }
            final int count = TrainingEvents.parseFeatures(example.get(TrainingEvents.FEATURES), model.features(), scratchFeatures());
            final boolean label = example.get(TrainingEvents.LABEL);
            if (worker.waiting) {
                worker.held.add(features[0], count, label, example.eventTime());
            } else {
                learn(worker, id, features[0], 0, count, label, example.eventTime(), context);
            }
            context.setState(worker);
        }

        /** One SGD step on the worker's copy over the example's features {@code ids[from, from + count)}; pushes when due. */
        private void learn(final Worker worker, final long id, final int[] ids, final int from, final int count, final boolean label,
                           final long time, final LongKeyContext<Worker> context) {
            if (!model.staleness().synchronous() && worker.steps % model.fetchEvery() == 0) {
                fetch(worker, id, context);
            }
            final double gradient = LogisticRegression.predict(worker.weights, ids, from, count) - (label ? 1 : 0);
            for (int i = from; i < from + count; i++) {
                final int feature = ids[i];
                worker.pending[feature] += gradient;
                worker.weights[feature] -= model.learningRate() * gradient;
                worker.touched[model.shardOf(feature)] = 1;
            }
            worker.steps++;
            worker.latestTime = Math.max(worker.latestTime, time);
            if (++worker.sincePush == model.pushEvery()) {
                push(worker, id, context);
            }
        }

        @Override
        public void onTimer(final long time, final LongKeyContext<Worker> context) {
            final Worker worker = context.state();
            if (worker == null) {
                return;
            }
            worker.ended = true;
            if (!worker.waiting) {
                finish(worker, context.longKey(), context);
            }
            context.setState(worker);
        }

        /** A waiting synchronous worker looks whether its round was taken; if so it goes on with the examples it held. */
        @Override
        public void onProcessingTimer(final long wallClockMs, final LongKeyContext<Worker> context) {
            final Worker worker = context.state();
            if (worker == null || !worker.waiting) {
                return;
            }
            if (!adoptRound(worker, context)) {
                context.registerProcessingTimer(System.currentTimeMillis() + WAIT_POLL_MS);
                return;
            }
            worker.waiting = false;
            final long id = context.longKey();
            final HeldExamples held = worker.held;
            while (held.next < held.count && !worker.waiting) {
                final int example = held.next++;
                final int start = held.start(example);
                learn(worker, id, held.features, start, held.ends[example] - start, held.labels[example], held.times[example], context);
            }
            held.dropLearnt();
            if (worker.ended && !worker.waiting) {
                finish(worker, id, context);
            }
            context.setState(worker);
        }

        /** The input ended and nothing is held: the last steps pushed, and synchronously the shards told the worker finished. */
        private void finish(final Worker worker, final long id, final LongKeyContext<Worker> context) {
            if (worker.sincePush > 0) {
                push(worker, id, context);
            }
            if (model.staleness().synchronous() && !worker.finished) {
                worker.waiting = false; // nothing more to learn: the last round needs no answer
                worker.finished = true;
                for (int shard = 0; shard < model.shards(); shard++) {
                    context.emit(update(context, worker, id, shard, "", TrainingEvents.FINISHED));
                }
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

        /** Synchronously: when every shard in the replica took the worker's last round, the worker's copy becomes them. */
        private boolean adoptRound(final Worker worker, final LongKeyContext<Worker> context) {
            final ShardValue[] round = new ShardValue[model.shards()];
            for (int shard = 0; shard < model.shards(); shard++) {
                round[shard] = context.lookup(model.shardsMap(), (long) shard);
                if (round[shard] == null || round[shard].round() < worker.round) {
                    return false;
                }
            }
            for (final ShardValue value : round) {
                ParameterServer.adopt(model, value, worker.weights, worker.pending); // nothing pending: the shard's weights as they are
                worker.base[(int) value.shard()] = value.version();
            }
            return true;
        }

        /** The features parsed, as a holder (see TrainingEvents.parseFeatures); with the push's scratch arrays made on first use. */
        private int[][] scratchFeatures() {
            if (features == null) {
                features = new int[][]{new int[64]};
                slots = new int[model.shardWidth()];
                values = new double[model.shardWidth()];
            }
            return features;
        }

        private void push(final Worker worker, final long id, final LongKeyContext<Worker> context) {
            scratchFeatures(); // a restored worker may push from a timer before any example came
            final boolean synchronous = model.staleness().synchronous();
            if (synchronous) {
                worker.round++;
            }
            for (int shard = 0; shard < model.shards(); shard++) {
                if (worker.touched[shard] == 0 && !synchronous) {
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
                // In updates of at most SparseGradient.MAX_ENTRIES; none for gradients that summed to zero, but
                // synchronously one at least (it marks the round).
                final int updates = Math.max(synchronous ? 1 : 0, (count + SparseGradient.MAX_ENTRIES - 1) / SparseGradient.MAX_ENTRIES);
                for (int u = 0; u < updates; u++) {
                    final int from = u * SparseGradient.MAX_ENTRIES;
                    final int entries = Math.min(SparseGradient.MAX_ENTRIES, count - from);
                    final long round = synchronous && u == updates - 1 ? worker.round : 0;
                    context.emit(update(context, worker, id, shard, SparseGradient.encode(slots, values, from, entries), round));
                    worker.updatesPushed++;
                }
            }
            worker.sincePush = 0;
            if (synchronous) {
                worker.waiting = true;
                context.registerProcessingTimer(System.currentTimeMillis() + WAIT_POLL_MS);
            }
            context.put(model.workersMap(), id, new WorkerProgress(id, worker.steps, worker.updatesPushed));
        }

        private SchemaRecord update(final LongKeyContext<Worker> context, final Worker worker, final long id, final int shard,
                                    final String gradient, final long round) {
            final SchemaRecord update = context.newEvent(TrainingEvents.UPDATE);
            update.setLong(0, shard).setTimestamp(1, worker.latestTime)
                    .set(TrainingEvents.UPDATE_WORKER, id)
                    .set(TrainingEvents.UPDATE_BASE, worker.base[shard])
                    .set(TrainingEvents.UPDATE_OWN_IN_BASE, worker.ownInBase[shard])
                    .set(TrainingEvents.UPDATE_STEPS, worker.sincePush)
                    .set(TrainingEvents.UPDATE_GRADIENT, gradient)
                    .set(TrainingEvents.UPDATE_ROUND, round);
            return update;
        }
    }
}
