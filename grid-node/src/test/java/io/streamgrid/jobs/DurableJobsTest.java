package io.streamgrid.jobs;

import com.datastax.oss.driver.api.core.CqlSession;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.JobStatus;
import com.hazelcast.jet.core.metrics.Measurement;
import com.hazelcast.jet.impl.JobExecutionRecord;
import com.hazelcast.jet.Util;
import io.streamgrid.cli.StreamGridCli;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cluster.MemberProcess;
import io.streamgrid.cluster.TestWorkDir;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.GeneratorSpec;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.JobMetricNames;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.pipeline.LateEvent;
import io.streamgrid.jobs.pipeline.WindowedJobs;
import io.streamgrid.jobs.usecase.IpTrafficJob;
import io.streamgrid.jobs.usecase.IpWindowCount;
import io.streamgrid.jobs.usecase.TrafficAlert;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.jobs.window.WindowOracle;
import io.streamgrid.jobs.window.WindowPolicy;
import io.streamgrid.sink.CassandraServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Design: three member processes with {@code persistence.jobs} on (and the state maps and side
 * outputs persisted write-behind) run ip-traffic exactly-once over requests the test appends to the
 * ingest log while the job runs. Mid-stream, after the job's third snapshot, Cassandra stops while
 * snapshots are being written, and 4 s later every member is killed with SIGKILL at once; the log
 * goes on growing. With Cassandra back, a new cluster from the same configuration must find the job
 * by itself (same job id, nobody resubmits it), resume it from the last snapshot completed before
 * Cassandra stopped (the coordinator's log names it; Cassandra holds exactly its chunks), go on
 * taking snapshots, and end with every window count, late event and alert equal to the brute-force
 * oracle's: none lost (state written before the snapshot but not yet in Cassandra would be), none
 * counted twice (events before the snapshot read again would be).
 */
class DurableJobsTest {
    /** Requests appended: 200,000 in the default run, 1,000,000 in the soak profile's (-Dstreamgrid.test.durableJobEvents). */
    private static final long EVENTS = Long.getLong("streamgrid.test.durableJobEvents", 200_000);
    private static final long DISORDER = 2_000;
    private static final long LATENESS = 30_000;
    private static final int PARTITIONS = 6;
    private static CassandraServer cassandra;

    @BeforeAll
    static void startCassandra() {
        final Path dir = Path.of(System.getProperty("streamgrid.test.workDir", "target/test-work"), "cassandra-" + UUID.randomUUID());
        cassandra = CassandraServer.start(dir, line -> System.out.println("[cassandra] " + line));
    }

    @AfterAll
    static void stopCassandra() {
        if (cassandra != null) {
            cassandra.close();
        }
    }

    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES)
    void when_cassandraStopsMidCheckpointsAndEveryMemberIsKilled_then_aNewClusterResumesTheJobFromTheLastCompleteOne(final TestInfo test) throws Exception {
        final Path workDir = TestWorkDir.of(test);
        final Path ingestDir = workDir.resolve("ingest");
        final String clusterName = "sg-durable-" + UUID.randomUUID().toString().substring(0, 8);
        final Path config = writeConfig(workDir, clusterName);
        final long seconds = Math.max(30, EVENTS / 10_000);
        final GeneratorSpec spec = GeneratorSpec.of(EventType.REQUEST, 77, EVENTS, 1_000).withRate(500)
                .withZipf(0.7).withDisorder(DISORDER, 0.01, 120_000).withHotKeys(0.05, 60_000);
        final IpTrafficJob job = new IpTrafficJob(new WindowPolicy(WindowDefinition.tumbling(60_000), DISORDER, LATENESS), 3.0, 100, 3);
        final WindowOracle.Result oracle = Scenario.oracle(spec, PARTITIONS, 60_000, 60_000, DISORDER, LATENESS);
        final Map<String, Long> expected = new HashMap<>();
        oracle.windows().forEach((id, accepted) -> expected.put(IpTrafficJob.windowKey(id.key(), id.start()), (long) accepted.size()));
        final Map<String, Long> expectedAlerts = Scenario.alerts(spec, PARTITIONS, 60_000, DISORDER, LATENESS,
                job.alertFactor(), job.alertFloor(), job.baselineMinWindows());

        try (SchemaLog log = Scenario.requestLog(ingestDir, PARTITIONS)) {
            final Scenario.PacedWriter writer = new Scenario.PacedWriter(spec, log, seconds);
            final long jobId;
            final int windowsBefore;
            final JobExecutionRecord atKill;
            try (LocalCluster cluster = cluster(workDir.resolve("before"), clusterName, config)) {
                final HazelcastInstance client = cluster.newClient();
                final Job running = WindowedJobs.submit(client.getJet(), job,
                        JobOptions.of(ingestDir).withSnapshotInterval(500).withLocalParallelism(2));
                jobId = running.getId();
                writer.start();
                writer.awaitAppended(EVENTS * 2 / 5);
                await().atMost(Duration.ofMinutes(1)).until(() -> !client.getMap(job.stateMap()).isEmpty());
                // Once a snapshot has completed after the job wrote windows, and not the first two (the new
                // cluster must resume from a snapshot map Jet cleared and wrote again; the two alternate),
                // Cassandra stops while snapshots are being written (one every 500 ms, each ~0.3 s), and
                // every member is killed while it is down: the last snapshot completed before must be the
                // one the new cluster resumes from (a restart from the log's beginning would also end
                // equal to the oracle, so the test checks which snapshot was restored).
                final long snapshotBefore = lastSnapshotId(client, jobId);
                await().atMost(Duration.ofMinutes(2)).until(() -> lastSnapshotId(client, jobId) > Math.max(1, snapshotBefore));
                cassandra.stop();
                final long snapshotAtStop = lastSnapshotId(client, jobId);
                Thread.sleep(4_000);
                windowsBefore = client.getMap(job.stateMap()).size();
                atKill = client.<Long, JobExecutionRecord>getMap("__jet.executionRecords").get(jobId);
                System.out.println("execution record at the kill: " + atKill);
                for (final MemberProcess member : cluster.members()) {
                    cluster.kill(member);
                }
                System.out.println("Cassandra stopped at snapshot " + snapshotAtStop + "; 4 s later every member killed at "
                        + writer.appended.get() + " events appended, " + windowsBefore + " windows in memory, the last completed snapshot "
                        + atKill.snapshotId());
                assertThat(atKill.snapshotId()).as("snapshots completed while Cassandra was down (the one being written may)")
                        .isBetween(snapshotAtStop, snapshotAtStop + 1);
                client.shutdown();
            }
            cassandra.start();
            // Cassandra holds exactly that snapshot in its map: its chunks and its validation record,
            // nothing left of the snapshot the map held two snapshots ago.
            final String snapshotMap = "__jet.snapshot." + Util.idToString(jobId) + "." + atKill.dataMapIndex();
            final long rows = rowsOf(snapshotMap);
            System.out.println(snapshotMap + ": " + rows + " rows in Cassandra, snapshot " + atKill.snapshotId() + " has "
                    + atKill.snapshotStats().numChunks() + " chunks and a validation record");
            assertThat(rows).as("rows of " + snapshotMap).isEqualTo(atKill.snapshotStats().numChunks() + 1);

            final long launched = System.nanoTime();
            try (LocalCluster cluster = cluster(workDir.resolve("after"), clusterName, config)) {
                final HazelcastInstance client = cluster.newClient();
                final AtomicReference<Job> resumed = new AtomicReference<>();
                await().atMost(Duration.ofMinutes(3)).pollInterval(Duration.ofMillis(200)).until(() -> {
                    final Job found = client.getJet().getJob(jobId);
                    resumed.set(found);
                    return found != null && found.getStatus() == JobStatus.RUNNING;
                });
                System.out.printf("job %s found RUNNING again %.1f s after the new cluster's members were launched%n",
                        resumed.get().getIdString(), (System.nanoTime() - launched) / 1e9);
                assertThat(client.getJet().getJobs()).as("jobs on the new cluster: only the one resumed, none resubmitted")
                        .extracting(Job::getId).containsExactly(jobId);
                final long restored = await().atMost(Duration.ofMinutes(1)).until(
                        () -> sum(resumed.get(), JobMetricNames.RESTORED_PARTITIONS), count -> count == PARTITIONS);
                final String restoreLine = "from snapshot " + atKill.snapshotId() + ",";
                assertThat(cluster.members().stream().anyMatch(member -> logHas(member, restoreLine)))
                        .as("a member's log says the job was restored " + restoreLine).isTrue();
                System.out.println("the resumed job restored " + restored + " log partitions " + restoreLine);
                // Checkpoints go on now that Cassandra is back.
                await().atMost(Duration.ofMinutes(1)).until(() -> lastSnapshotId(client, jobId) > atKill.snapshotId());
                final StringWriter out = new StringWriter();
                final StringWriter err = new StringWriter();
                final int code = StreamGridCli.run(new String[] {"job", "checkpoints", job.name(), "--config", config.toString(),
                        "--member=" + cluster.members().get(0).address()}, new PrintWriter(out, true), new PrintWriter(err, true));
                System.out.println("streamgrid job checkpoints " + job.name() + ":\n" + out + err);
                assertThat(code).as(err.toString()).isZero();
                assertThat(out.toString()).contains("checkpoints durable: in Cassandra").containsPattern(
                        "\\n  \\d+ +\\S+ +\\d+ ms +[\\d,]+  the last completed: a restart resumes from it");
                writer.finish();
                log.appendEndOfStream();

                final Map<String, Long> found = awaitWindows(client, job, expected, resumed.get());
                final long lost = expected.keySet().stream().filter(k -> !found.containsKey(k)).count();
                final long over = expected.entrySet().stream().filter(e -> found.getOrDefault(e.getKey(), 0L) > e.getValue()).count();
                final long under = expected.entrySet().stream()
                        .filter(e -> found.containsKey(e.getKey()) && found.get(e.getKey()) < e.getValue()).count();
                final long extra = found.keySet().stream().filter(k -> !expected.containsKey(k)).count();
                System.out.println(expected.size() + " windows expected, " + found.size() + " found, " + lost + " lost, "
                        + over + " duplicated (counted twice: " + over + ", under-counted: " + under + ", unexpected: " + extra
                        + "); " + EVENTS + " events");
                assertThat(windowsBefore).as("killed mid-stream").isBetween(1, expected.size() - 1);
                assertThat(found).isEqualTo(expected);
                final TreeSet<Long> late = client.<String, LateEvent>getMap(job.lateMap()).values().stream()
                        .map(LateEvent::sequence).collect(Collectors.toCollection(TreeSet::new));
                System.out.println("late side output: " + oracle.lateSequences().size() + " expected, " + late.size() + " found");
                assertThat(late).as("late events (side output, persisted)").isEqualTo(new TreeSet<>(oracle.lateSequences()));
                final Map<String, Long> alerts = client.<String, TrafficAlert>getMap(IpTrafficJob.ALERTS_MAP).entrySet().stream()
                        .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().count()));
                System.out.println("alerts: " + JobTestSupport.diff(expectedAlerts, alerts));
                assertThat(expectedAlerts).as("the stream's spikes raise alerts").isNotEmpty();
                assertThat(alerts).isEqualTo(expectedAlerts);
                resumed.get().cancel();
            }
        }
    }

    private static boolean logHas(final MemberProcess member, final String text) {
        try {
            return Files.readString(member.logFile()).contains(text);
        } catch (final java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    private static long rowsOf(final String map) {
        try (CqlSession session = cassandra.newSession()) {
            return session.execute("SELECT count(*) FROM durable.state_entries WHERE map = ? ALLOW FILTERING", map).one().getLong(0);
        }
    }

    /** The id of the job's last completed snapshot (-1: none yet), from Jet's execution record. */
    private static long lastSnapshotId(final HazelcastInstance client, final long jobId) {
        final JobExecutionRecord record = client.<Long, JobExecutionRecord>getMap("__jet.executionRecords").get(jobId);
        return record == null ? -1 : record.snapshotId();
    }

    private static long sum(final Job job, final String metric) {
        return job.getMetrics().get(metric).stream().mapToLong(Measurement::value).sum();
    }

    private static Map<String, Long> awaitWindows(final HazelcastInstance client, final IpTrafficJob job,
                                                  final Map<String, Long> expected, final Job running) {
        final AtomicReference<Map<String, Long>> last = new AtomicReference<>(Map.of());
        try {
            JobTestSupport.awaitEqual(expected, () -> {
                final Map<String, Long> now = client.<String, IpWindowCount>getMap(job.stateMap()).entrySet().stream()
                        .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().count()));
                last.set(now);
                return now;
            }, Duration.ofMinutes(4), running);
        } catch (final AssertionError e) {
            System.out.println("did not converge: " + e.getMessage());
        }
        return last.get();
    }

    private static LocalCluster cluster(final Path workDir, final String clusterName, final Path config) {
        return LocalCluster.builder().members(3).memberHeap("512m").workDir(workDir).clusterName(clusterName)
                .configFile(config).start();
    }

    private static Path writeConfig(final Path workDir, final String clusterName) throws Exception {
        Files.createDirectories(workDir);
        final Path file = workDir.resolve("streamgrid.yaml");
        Files.writeString(file, String.join("\n",
                "cluster-name: " + clusterName,
                "cassandra:",
                "  contact-points: [127.0.0.1:" + cassandra.nativePort() + "]",
                "  keyspace: durable",
                "  consistency-level: ONE",
                "persistence:",
                "  enabled: true",
                "  jobs: true",
                "  maps: [\"state.*\", \"late.*\", \"rejected.*\"]",
                // Longer than the 3 s between window ends here: window results are always waiting to be
                // written behind when the members are killed, and only the flush before each snapshot saves them.
                "  write-delay-seconds: 5",
                ""));
        return file;
    }
}
