package io.streamgrid.examples.jobs;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cluster.TestWorkDir;
import io.streamgrid.examples.paramserver.LabelledExample;
import io.streamgrid.examples.paramserver.OfflineSgd;
import io.streamgrid.examples.paramserver.ParameterModel;
import io.streamgrid.examples.paramserver.ParameterServer;
import io.streamgrid.examples.paramserver.ShardServerJob;
import io.streamgrid.examples.paramserver.ShardValue;
import io.streamgrid.examples.paramserver.Staleness;
import io.streamgrid.examples.paramserver.SyntheticExamples;
import io.streamgrid.examples.paramserver.TrainingEvents;
import io.streamgrid.examples.paramserver.WorkerJob;
import io.streamgrid.examples.paramserver.WorkerProgress;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.Scenario;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.pipeline.JobOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Design of this test: the parameter server's worker and shard server run exactly-once on three
 * member processes over 12,000 examples appended while they run, a lone worker pushing every step
 * (so its run is deterministic: it never adopts a fetched shard); a member other than Jet's
 * coordinator is killed with SIGKILL mid-stream. Both jobs restore from their snapshots: the worker
 * emits again the updates it had emitted since, which the server must not apply twice, and the
 * server re-applies from its snapshot. Afterwards each shard took exactly the updates an offline
 * pass computes (one per example that touched it), and the model equals offline SGD over the
 * examples bit for bit — an update applied twice or skipped would move it.
 */
class ParameterServerExactlyOnceTest {
    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void when_memberKilledMidStream_then_everyUpdateIsAppliedOnceAndTheModelEqualsOfflineSgd(final TestInfo test) throws Exception {
        final Path workDir = TestWorkDir.of(test);
        final ParameterModel model = new ParameterModel("killed", 1_024, 8, 1, 0.1, Staleness.DIVIDES_RATE, 10, 1);
        final List<LabelledExample> examples = new SyntheticExamples(13, model.features(), 8, 1, System.currentTimeMillis()).next(12_000);
        final KeyedJob<?> workers = new WorkerJob(model).job();
        final KeyedJob<?> server = new ShardServerJob(model).job();
        final JobOptions options = JobOptions.of(workDir.resolve("ingest")).withSnapshotInterval(200).withLocalParallelism(2);
        final Offline offline = Offline.sgd(model, examples);

        try (LocalCluster cluster = LocalCluster.builder().members(3).memberHeap("512m").workDir(workDir).start();
             SchemaLog log = SchemaLog.open(Jobs.logDirectory(workers, options), TrainingEvents.EXAMPLE, 6)) {
            final HazelcastInstance client = cluster.newClient();
            final Job worker = Jobs.submit(client.getJet(), workers, options);
            final Scenario.PacedWriter writer = new Scenario.PacedWriter(afterEach -> {
                for (final LabelledExample example : examples) {
                    SyntheticExamples.append(log, List.of(example));
                    afterEach.run();
                }
            }, examples.size(), 12);
            writer.start();
            final Path updates = Jobs.logDirectory(server, options);
            await().atMost(Duration.ofMinutes(1)).until(() -> SchemaLog.exists(updates));
            final Job shards = Jobs.submit(client.getJet(), server, options);
            writer.awaitAppended(examples.size() * 2 / 5);
            await().atMost(Duration.ofMinutes(1)).until(() -> client.getMap(model.shardsMap()).size() == model.shards());
            cluster.kill(Scenario.notTheCoordinator(cluster, client));
            System.out.println("killed a member at " + writer.appended.get() + " examples appended");
            writer.finish();
            log.appendEndOfStream();

            final Map<Long, ShardValue> published = client.getMap(model.shardsMap());
            final Map<Long, WorkerProgress> progress = client.getMap(model.workersMap());
            try {
                await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500)).until(() -> {
                    final WorkerProgress done = progress.get(0L);
                    return done != null && done.steps() == examples.size()
                            && published.values().stream().mapToLong(ShardValue::version).sum() >= offline.updates();
                });
            } catch (final org.awaitility.core.ConditionTimeoutException e) {
                throw new AssertionError("did not finish: " + progress.get(0L) + ", updates applied "
                        + published.values().stream().mapToLong(ShardValue::version).sum() + " of " + offline.updates()
                        + "; worker " + worker.getStatus() + ", server " + shards.getStatus(), e);
            }
            Thread.sleep(2_000); // an update applied twice would show now
            final Map<Long, ShardValue> result = Map.copyOf(published);
            long found = 0;
            long lost = 0;
            long duplicated = 0;
            for (int shard = 0; shard < model.shards(); shard++) {
                final long applied = result.get((long) shard).version();
                found += applied;
                lost += Math.max(0, offline.updatesByShard()[shard] - applied);
                duplicated += Math.max(0, applied - offline.updatesByShard()[shard]);
            }
            System.out.println(offline.updates() + " expected, " + found + " found, " + lost + " lost, " + duplicated + " duplicated"
                    + " (updates of " + examples.size() + " examples)");
            assertThat(lost).as("updates lost").isZero();
            assertThat(duplicated).as("updates applied twice").isZero();
            assertThat(ParameterServer.weights(model, result)).containsExactly(offline.weights());
            assertThat(ParameterServer.stalenessCounts(result)[0]).as("updates of staleness 0").isEqualTo(found);
            worker.cancel();
            shards.cancel();
        }
    }

    /** The oracle: offline SGD over the examples in order, and the updates each shard takes from a lone worker pushing every step. */
    private record Offline(double[] weights, long[] updatesByShard) {
        static Offline sgd(final ParameterModel model, final List<LabelledExample> examples) {
            // A lone worker pushing every step sends one update per shard its example touches (a gradient is never 0 here).
            final long[] updates = new long[model.shards()];
            for (final LabelledExample example : examples) {
                final boolean[] touched = new boolean[model.shards()];
                for (final int feature : example.withBias()) {
                    touched[model.shardOf(feature)] = true;
                }
                for (int shard = 0; shard < touched.length; shard++) {
                    updates[shard] += touched[shard] ? 1 : 0;
                }
            }
            return new Offline(OfflineSgd.weights(model.features(), model.learningRate(), examples), updates);
        }

        long updates() {
            long sum = 0;
            for (final long count : updatesByShard) {
                sum += count;
            }
            return sum;
        }
    }
}
