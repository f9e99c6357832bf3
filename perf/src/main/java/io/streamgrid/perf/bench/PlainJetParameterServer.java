package io.streamgrid.perf.bench;

import com.hazelcast.config.InMemoryFormat;
import com.hazelcast.config.MapConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.config.JobConfig;
import com.hazelcast.jet.pipeline.Pipeline;
import com.hazelcast.jet.pipeline.ServiceFactories;
import com.hazelcast.jet.pipeline.Sinks;
import com.hazelcast.map.EntryProcessor;
import com.hazelcast.map.IMap;
import io.streamgrid.examples.paramserver.ParameterModel;
import io.streamgrid.examples.paramserver.ParameterServer;
import io.streamgrid.examples.paramserver.ShardValue;
import io.streamgrid.examples.paramserver.TrainingEvents;

import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The parameter server as a plain Jet user writes it with an IMap of parameters: the example log
 * grouped by worker into a non-cooperative {@code mapUsingService} whose service holds each
 * worker's model copy; every n steps a worker reads every shard with {@code getAll}, every m steps
 * it sends per touched shard an entry processor that applies its gradient on the shard's member
 * with the same staleness rule, all at once ({@code submitToKey}), and waits for them. The shard
 * map keeps its values as objects (no serialisation per entry processor). The same algorithm as
 * the examples' jobs, with no exactly-once: the workers' copies are not in Jet's snapshots, and an
 * entry processor repeated after a failure applies its update twice.
 */
final class PlainJetParameterServer {
    /** Examples learnt and updates pushed by the plain Jet workers of the run in progress (the benchmark's member runs them in this JVM). */
    static final LongAdder STEPS = new LongAdder();
    static final LongAdder PUSHED = new LongAdder();

    private PlainJetParameterServer() {
    }

    /** The shard map of {@code model}: {@code jet-ps.<model>}, values kept as objects. */
    static String shardsMap(final HazelcastInstance member, final ParameterModel model) {
        final String name = "jet-ps." + model.name();
        member.getConfig().addMapConfig(new MapConfig(name).setInMemoryFormat(InMemoryFormat.OBJECT).setBackupCount(1));
        return name;
    }

    static Job submit(final HazelcastInstance member, final ParameterModel model, final Path exampleLog, final String shardsMap,
                      final int localParallelism) {
        STEPS.reset();
        PUSHED.reset();
        final String log = exampleLog.toAbsolutePath().toString();
        final Pipeline pipeline = Pipeline.create();
        pipeline.readFrom(SchemaLogSource.of(Path.of(log), TrainingEvents.EXAMPLE, localParallelism,
                        r -> new Example(r.getLong(0), r.getString(2), r.getBoolean(3))))
                .withoutTimestamps()
                .groupingKey(Example::worker)
                .mapUsingService(ServiceFactories.nonSharedService(context -> new Workers(context.hazelcastInstance()
                                .getMap(shardsMap), model)).toNonCooperative(),
                        (Workers workers, Long worker, Example example) -> workers.step(worker, example))
                .writeTo(Sinks.noop());
        return member.getJet().newJob(pipeline, new JobConfig().setName("jet-ps-" + model.name()));
    }

    record Example(long worker, String features, boolean label) implements Serializable {
    }

    /** The model copies of one processor's workers. */
    static final class Workers {
        private final IMap<Long, ShardValue> shards;
        private final ParameterModel model;
        private final Map<Long, Worker> byId = new HashMap<>();
        private final Set<Long> allShards;
        private final int[][] features = {new int[64]};

        Workers(final IMap<Long, ShardValue> shards, final ParameterModel model) {
            this.shards = shards;
            this.model = model;
            this.allShards = IntStream.range(0, model.shards()).mapToObj(s -> (long) s).collect(Collectors.toSet());
        }

        Boolean step(final long id, final Example example) {
            final Worker worker = byId.computeIfAbsent(id, w -> new Worker(model));
            if (worker.steps % model.fetchEvery() == 0) {
                fetch(worker, id);
            }
            final int count = TrainingEvents.parseFeatures(example.features(), model.features(), features);
            final int[] ids = features[0];
            double margin = 0;
            for (int i = 0; i < count; i++) {
                margin += worker.weights[ids[i]];
            }
            final double gradient = 1.0 / (1.0 + Math.exp(-margin)) - (example.label() ? 1 : 0);
            for (int i = 0; i < count; i++) {
                worker.pending[ids[i]] += gradient;
                worker.weights[ids[i]] -= model.learningRate() * gradient;
                worker.touched[model.shardOf(ids[i])] = true;
            }
            worker.steps++;
            if (++worker.sincePush == model.pushEvery()) {
                push(worker, id);
            }
            STEPS.increment();
            return Boolean.TRUE;
        }

        private void fetch(final Worker worker, final long id) {
            for (final ShardValue value : shards.getAll(allShards).values()) {
                final int shard = (int) value.shard();
                final long own = value.appliedByWorker()[(int) id];
                if (ShardValue.othersSince(value.version(), own, worker.base[shard], worker.ownInBase[shard]) <= 0) {
                    continue;
                }
                ParameterServer.adopt(model, value, worker.weights, worker.pending);
                worker.base[shard] = value.version();
                worker.ownInBase[shard] = own;
            }
        }

        private void push(final Worker worker, final long id) {
            final List<CompletableFuture<Object>> sent = new ArrayList<>();
            for (int shard = 0; shard < model.shards(); shard++) {
                if (!worker.touched[shard]) {
                    continue;
                }
                worker.touched[shard] = false;
                final List<Integer> slots = new ArrayList<>();
                final List<Double> values = new ArrayList<>();
                for (int slot = 0; slot < model.shardWidth(); slot++) {
                    final int feature = model.featureOf(shard, slot);
                    if (feature < model.features() && worker.pending[feature] != 0) {
                        slots.add(slot);
                        values.add(worker.pending[feature]);
                        worker.pending[feature] = 0;
                    }
                }
                if (!slots.isEmpty()) {
                    sent.add(shards.submitToKey((long) shard, new Apply(model, id, worker.base[shard], worker.ownInBase[shard],
                            slots.stream().mapToInt(Integer::intValue).toArray(),
                            values.stream().mapToDouble(Double::doubleValue).toArray())).toCompletableFuture());
                    PUSHED.increment();
                }
            }
            worker.sincePush = 0;
            CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).join();
        }
    }

    static final class Worker {
        final double[] weights;
        final double[] pending;
        final boolean[] touched;
        final long[] base;
        final long[] ownInBase;
        long steps;
        int sincePush;

        Worker(final ParameterModel model) {
            weights = new double[model.features()];
            pending = new double[model.features()];
            touched = new boolean[model.shards()];
            base = new long[model.shards()];
            ownInBase = new long[model.shards()];
        }
    }

    /** One worker's update of one shard, applied on the shard's member: the staleness rule of the examples' server. */
    record Apply(ParameterModel model, long worker, long base, long ownInBase, int[] slots, double[] values)
            implements EntryProcessor<Long, ShardValue, Object>, Serializable {
        @Override
        public Object process(final Map.Entry<Long, ShardValue> entry) {
            final ShardValue before = entry.getValue();
            final ShardValue shard = before != null ? before : new ShardValue(entry.getKey(), 0, new double[model.shardWidth()],
                    new long[model.maxWorkers()], new long[ShardValue.STALENESS_BUCKETS], 0);
            final long tau = Math.max(0, ShardValue.othersSince(shard.version(), shard.appliedByWorker()[(int) worker], base, ownInBase));
            final double rate = model.learningRate() * model.staleness().rateFactor(tau);
            for (int i = 0; i < slots.length; i++) {
                shard.weights()[slots[i]] -= rate * values[i];
            }
            shard.appliedByWorker()[(int) worker]++;
            shard.stalenessCounts()[ShardValue.bucketOf(tau)]++;
            entry.setValue(new ShardValue(shard.shard(), shard.version() + 1, shard.weights(), shard.appliedByWorker(),
                    shard.stalenessCounts(), 0));
            return null;
        }
    }
}
