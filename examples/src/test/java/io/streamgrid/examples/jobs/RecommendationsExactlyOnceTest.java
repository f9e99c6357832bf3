package io.streamgrid.examples.jobs;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cluster.TestWorkDir;
import io.streamgrid.jobs.Scenario;
import io.streamgrid.examples.recommendations.ClickStream;
import io.streamgrid.examples.recommendations.Recommendations;
import io.streamgrid.examples.recommendations.RecommendationsJob;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.pipeline.JobOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Design of this test: the recommendations example runs exactly-once on three member processes
 * over a click stream of 2,000 users (about 100,000 clicks) appended while it runs; a member other
 * than Jet's coordinator is killed with SIGKILL mid-stream. Every user's recommendations, profile
 * summary and click count must then equal the oracle's: a click applied twice after the restore
 * would count twice and weigh twice in the affinity, a lost one would be missing from both.
 */
class RecommendationsExactlyOnceTest {
    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void when_memberKilledMidStream_then_everyUsersRecommendationsEqualTheOracle(final TestInfo test) throws Exception {
        final Path workDir = TestWorkDir.of(test);
        final ClickStream stream = new ClickStream(23, 2_000, 5_000, 95);
        final RecommendationsJob recommendations = new RecommendationsJob(600_000, 1_800_000, 5, 20);
        final Map<Long, Recommendations> expected = stream.expected(recommendations);
        final KeyedJob<?> job = recommendations.job();
        final JobOptions options = JobOptions.of(workDir.resolve("ingest")).withSnapshotInterval(200).withLocalParallelism(2);
        final int clicks = stream.clicks().size();

        try (LocalCluster cluster = LocalCluster.builder().members(3).memberHeap("512m").workDir(workDir).start();
             SchemaLog log = SchemaLog.open(Jobs.logDirectory(job, options), RecommendationsJob.CLICK, 6)) {
            final HazelcastInstance client = cluster.newClient();
            client.getMap(RecommendationsJob.NEIGHBOURS).putAll(stream.neighbours());
            final Job running = Jobs.submit(client.getJet(), job, options);
            final Scenario.PacedWriter writer = new Scenario.PacedWriter(afterEach -> {
                for (int i = 0; i < clicks; i++) {
                    stream.append(log, i, i + 1);
                    afterEach.run();
                }
            }, clicks, 15);
            writer.start();
            writer.awaitAppended(clicks * 2 / 5);
            await().atMost(Duration.ofMinutes(1)).until(() -> !client.getMap(RecommendationsJob.RECOMMENDATIONS).isEmpty());
            cluster.kill(Scenario.notTheCoordinator(cluster, client));
            System.out.println("killed a member at " + writer.appended.get() + " clicks appended");
            writer.finish();

            final AtomicReference<List<String>> differences = new AtomicReference<>(List.of("not read yet"));
            final AtomicReference<Map<Long, Recommendations>> found = new AtomicReference<>(Map.of());
            try {
                await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(500)).until(() -> {
                    found.set(new HashMap<>(client.<Long, Recommendations>getMap(RecommendationsJob.RECOMMENDATIONS)));
                    differences.set(ClickStream.differences(expected, found.get()));
                    return differences.get().isEmpty();
                });
            } catch (final org.awaitility.core.ConditionTimeoutException e) {
                System.out.println("did not converge");
            }
            final ClickStream.ClickCount count = ClickStream.count(expected, found.get());
            final long lost = count.lost();
            final long duplicated = count.duplicated();
            System.out.println(clicks + " expected, " + count.counted() + " found, " + lost + " lost, " + duplicated + " duplicated (clicks "
                    + "counted in " + found.get().size() + " users' profiles of " + expected.size() + "); "
                    + differences.get().size() + " users' recommendations differ; first differences: "
                    + differences.get().stream().limit(3).toList());
            assertThat(lost + duplicated).as("clicks lost or applied twice").isZero();
            assertThat(differences.get()).isEmpty();
            assertThat(client.getMap(job.lateMap()).size()).as("late clicks").isZero();
            running.cancel();
        }
    }
}
