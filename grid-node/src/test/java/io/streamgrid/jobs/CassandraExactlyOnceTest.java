package io.streamgrid.jobs;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cluster.TestWorkDir;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.GeneratorSpec;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.usecase.IpTrafficJob;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.jobs.window.WindowPolicy;
import io.streamgrid.sink.CassandraExtension;
import io.streamgrid.sink.CassandraSchema;
import io.streamgrid.sink.CassandraTarget;
import io.streamgrid.sink.FileCommitPause;
import io.streamgrid.sink.SinkOptions;
import io.streamgrid.sink.TableSpec;
import io.streamgrid.sink.TableVerifier;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Design of these tests: jobs on three member processes write to a real Cassandra server (a child
 * JVM) through the exactly-once sink, with snapshots every 200 ms, while the test breaks things —
 * kills a member, stops Cassandra between prepare and commit, restarts the job ten times (twenty in the soak profile). The
 * tables are then compared with an independent oracle by {@link TableVerifier}.
 */
class CassandraExactlyOnceTest {
    /** Job restarts of the restart test: 6 in the default run, 20 in the soak profile's (-Dstreamgrid.test.sinkRestarts). */
    private static final int RESTARTS = Integer.getInteger("streamgrid.test.sinkRestarts", 6);
    private static final int PARTITIONS = 6;
    private static final long DISORDER = 2_000;
    private static final long LATENESS = 30_000;
    @RegisterExtension
    static final CassandraExtension CASSANDRA = new CassandraExtension();

    @Test
    @Tag("soak") // the examples module's UserActivityCassandraExactlyOnceTest kills a member under the same sink and compares the table with its oracle; soak only, for the 30-minute default run
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void when_memberKilledMidJob_then_tableHoldsExactlyTheExpectedRows(final TestInfo test) throws Exception {
        runIpTraffic(test, "killed", 200_000, SinkOptions.defaults(), (cluster, writer, barrier) -> {
            writer.awaitAppended(80_000);
            cluster.kill(cluster.members().get(1));
            System.out.println("killed member 2 at " + writer.appended.get() + " events appended");
        });
    }

    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void when_cassandraStoppedBetweenPrepareAndCommit_then_afterRestartExactlyTheExpectedRows(final TestInfo test) throws Exception {
        final Path barrier = TestWorkDir.of(test).resolveSibling(test.getTestMethod().orElseThrow().getName() + "-barrier");
        Files.createDirectories(barrier);
        runIpTraffic(test, "stopped", 100_000, SinkOptions.defaults().withBeforeCommit(new FileCommitPause(barrier.toString())), (cluster, writer, dir) -> {
            writer.awaitAppended(40_000);
            Files.writeString(barrier.resolve("pause"), "hold commits");
            await().atMost(Duration.ofMinutes(1)).until(() -> {
                try (Stream<Path> files = Files.list(barrier)) {
                    return files.anyMatch(f -> f.getFileName().toString().startsWith("reached-"));
                }
            });
            System.out.println("a prepared transaction is about to commit; stopping Cassandra");
            CASSANDRA.server().stop();
            Files.delete(barrier.resolve("pause"));
            Thread.sleep(3_000); // commits now fail and retry: the job stalls, nothing is lost
            CASSANDRA.server().start();
            // The test's own session may wait up to its reconnection delay to see the node again.
            CASSANDRA.reconnect();
            System.out.println("Cassandra is back");
        });
    }

    private interface Disruption {
        void apply(LocalCluster cluster, Scenario.PacedWriter writer, Path workDir) throws Exception;
    }

    private static void runIpTraffic(final TestInfo test, final String keyspace, final long events, final SinkOptions options,
                                     final Disruption disruption) throws Exception {
        final Path workDir = TestWorkDir.of(test);
        final GeneratorSpec spec = GeneratorSpec.of(EventType.REQUEST, 7, events, 500).withRate(1_000)
                .withZipf(0.7).withDisorder(DISORDER, 0.01, 120_000);
        final Map<List<Object>, List<Object>> expected = Scenario.ipWindowRows(
                Scenario.oracle(spec, PARTITIONS, 60_000, 60_000, DISORDER, LATENESS));

        final CassandraTarget target = CassandraTarget.local(CASSANDRA.server(), keyspace);
        final TableSpec table = IpTrafficJob.windowCountsTable(keyspace);
        CassandraSchema.ensure(CASSANDRA.session(), target, table);
        CassandraSchema.ensure(CASSANDRA.session(), target, IpTrafficJob.alertsTable(keyspace));
        final IpTrafficJob job = new IpTrafficJob(new WindowPolicy(WindowDefinition.tumbling(60_000), DISORDER, LATENESS), 3.0, 100, 3);

        try (LocalCluster cluster = LocalCluster.builder().members(3).memberHeap("512m").workDir(workDir).start();
             SchemaLog log = Scenario.requestLog(workDir.resolve("ingest"), PARTITIONS);
             VersionedRows versions = new VersionedRows(target, keyspace, 500, 40_000, () -> CASSANDRA.session())) {
            final HazelcastInstance client = cluster.newClient();
            final Job running = Jobs.submit(client.getJet(), job,
                    JobOptions.of(workDir.resolve("ingest")).withSnapshotInterval(200).withLocalParallelism(2),
                    IpTrafficJob.cassandraOutput(target, options));
            // Beside it, rows whose every attempt is visible as such: what a reader sees through the disruption.
            final Job versionsJob = versions.start(client, target, options);
            final Scenario.PacedWriter writer = new Scenario.PacedWriter(spec, log, 15);
            writer.start();
            await().atMost(Duration.ofMinutes(1)).until(() -> versions.progress() > 0);
            assertThat(versions.progress()).as("rows still to write when the disruption comes").isLessThan(versions.finalProgress());
            disruption.apply(cluster, writer, workDir);
            final long readsBefore = versions.reads();
            writer.finish();
            log.appendEndOfStream();

            final TableVerifier.Report[] report = new TableVerifier.Report[1];
            try {
                await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofSeconds(1)).ignoreExceptions()
                        .failFast("job failed or suspended", () -> Scenario.stopped(running))
                        .until(() -> (report[0] = TableVerifier.verify(CASSANDRA.session(), table, Scenario.IP_WINDOW_COLUMNS, expected)).isExact());
            } finally {
                System.out.println(keyspace + ".ip_window_counts: " + report[0]);
            }
            assertThat(report[0].isExact()).isTrue();
            assertSinkMetricsServed(cluster, job.name());
            versions.verify(() -> Scenario.stopped(versionsJob));
            assertThat(versions.reads()).as("rows read after the disruption").isGreaterThan(readsBefore);
            versionsJob.cancel();
            running.cancel();
        }
    }

    /** The members serve the sink's series (counted since the job's current execution started), every one the dashboard queries. */
    private static void assertSinkMetricsServed(final LocalCluster cluster, final String job) throws Exception {
        final double rows = MetricsScrape.sum(cluster.members(), "streamgrid_sink_rows_committed_total", job);
        final double transactions = MetricsScrape.sum(cluster.members(), "streamgrid_sink_transactions_committed_total", job);
        System.out.println("sink metrics: " + rows + " rows in " + transactions + " transactions committed since the job's last start");
        assertThat(rows).isPositive();
        assertThat(transactions).isPositive();
        final java.util.Set<String> served = MetricsScrape.names(cluster.members().get(0));
        final java.util.Set<String> queried = MetricsScrape.dashboardMetricNames();
        queried.removeIf(name -> !name.startsWith("streamgrid_sink_"));
        assertThat(served).containsAll(queried);
    }

    /**
     * Design: {@link VersionedRows} with 3,000 rows per restart, the job restarted {@link #RESTARTS}
     * times at random moments with {@code Job.restart()} (Jet takes a terminal snapshot first:
     * prepared epochs commit, pending ones are replayed) while its reader polls the table. The two
     * ip-traffic tests run the same workload beside theirs, through a member kill and a Cassandra
     * stop between prepare and commit: one disruption each, at a moment chosen by the test.
     *
     * <p>Why no forced restarts here: the ip-traffic tests abort epochs by force, once (a member
     * killed under load; Cassandra stopped between prepare and commit). Forced restarts repeated at random
     * moments met two Hazelcast 5.7 limits, both seen in this test and both Jet's, not the sink's
     * (docs/design/transactional-sink.md, "Jet snapshots after a processor failure"): a processor that throws can
     * let a snapshot complete without its member's cancelled processors' state (2 of 11 runs: the
     * source restarted from 0, every row went back); a member killed while a restart or snapshot is
     * in flight left the execution stuck ("TerminateExecutionOperation invocations failed, execution
     * might remain stuck", snapshots retried under one id) in 3 of 6 runs with kills.
     */
    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void when_jobRestartedRepeatedly_then_exactRowsAndReaderNeverSeesUncommittedOrOlderValues(final TestInfo test) throws Exception {
        final CassandraTarget target = CassandraTarget.local(CASSANDRA.server(), "restarted");
        try (LocalCluster cluster = LocalCluster.builder().members(3).memberHeap("512m").workDir(TestWorkDir.of(test)).start();
             VersionedRows versions = new VersionedRows(target, "restarted", 500, 3_000L * RESTARTS, () -> CASSANDRA.session())) {
            final HazelcastInstance client = cluster.newClient();
            final Job job = versions.start(client, target, SinkOptions.defaults());
            final SplittableRandom random = new SplittableRandom(20);
            for (int i = 1; i <= RESTARTS; i++) {
                // Disrupt only after the job has committed something new since the last restart,
                // then at a random moment within the next second.
                final long progress = versions.progress();
                await().atMost(Duration.ofMinutes(2)).until(() -> versions.progress() > progress
                        || versions.progress() >= versions.finalProgress());
                Thread.sleep(random.nextInt(1_000));
                Scenario.awaitRunning(job, cluster);
                job.restart();
            }
            final long readsDuringRestarts = versions.reads();
            System.out.println(RESTARTS + " restarts done, reader saw " + readsDuringRestarts + " rows meanwhile");
            assertThat(readsDuringRestarts).as("reader saw committed rows while the job was being restarted").isPositive();
            versions.verify(() -> Scenario.stopped(job));
            job.cancel();
        }
    }

}
