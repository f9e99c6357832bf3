package io.streamgrid.examples.kappa;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cluster.TestWorkDir;
import io.streamgrid.cluster.ThreadDumps;
import io.streamgrid.jobs.Scenario;
import io.streamgrid.jobs.ingest.LoadReport;
import io.streamgrid.jobs.ingest.SchemaLoader;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.pipeline.Replay;
import io.streamgrid.sink.CassandraExtension;
import io.streamgrid.sink.CassandraSchema;
import io.streamgrid.sink.CassandraTarget;
import io.streamgrid.sink.SinkOptions;
import io.streamgrid.sink.TableSpec;
import io.streamgrid.sink.TableVerifier;
import org.awaitility.core.ConditionTimeoutException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The Kappa example's exactly-once output: {@code user-activity} on three member processes writes
 * to a real Cassandra server (a child JVM) through the exactly-once sink, snapshots every 200 ms,
 * while a member is killed; the table is compared with the example's own oracle by
 * {@link TableVerifier}. (Moved here from grid-node's CassandraExactlyOnceTest with the example.)
 */
class UserActivityCassandraExactlyOnceTest {
    private static final int PARTITIONS = 6;
    @RegisterExtension
    static final CassandraExtension CASSANDRA = new CassandraExtension();

    /**
     * Design: the Kappa example end to end on three member processes — 12,000 access-log lines of
     * 300 users loaded in two halves with the access-log format while {@code user-activity} runs
     * exactly-once with its Cassandra binding, a member killed between the halves. The serving map
     * and the Cassandra table must both equal the oracle (per user: requests, bytes, 5xx, the last
     * path and time, the dimension's country and segment). Then the job is replayed from the start
     * beside the live one (Kappa): its own map and table must equal the oracle too, the live table
     * unchanged.
     */
    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void when_accessLogEnrichedAcrossAMemberKill_then_servingMapAndCassandraTableEqualTheOracle(final TestInfo test) throws Exception {
        final Path workDir = TestWorkDir.of(test);
        final SplittableRandom random = new SplittableRandom(33);
        final List<AccessLogs.Request> requests = new ArrayList<>();
        final Map<String, UserProfile> users = new HashMap<>();
        long time = 1_767_225_600_000L;
        for (int i = 0; i < 12_000; i++) {
            time += 1_000L * random.nextInt(0, 2);
            final String user = "user-" + random.nextInt(300);
            final String path = "/items/" + random.nextInt(500);
            final int status = random.nextInt(20) == 0 ? 500 : 200;
            final long bytes = random.nextInt(1, 10_000);
            requests.add(new AccessLogs.Request("10.1.0." + random.nextInt(250), user, time, "GET", path, status, bytes));
            users.put(user, new UserProfile(user, "C" + user.length(), "S" + (user.hashCode() & 1), 0));
        }
        final List<String> lines = new ArrayList<>();
        for (int i = 0; i < requests.size(); i++) {
            lines.add(requests.get(i).line(i % 3 == 0));
        }
        final Map<List<Object>, List<Object>> expected = new HashMap<>();
        UserActivityJob.expected(requests, users).forEach((user, a) -> expected.put(List.of(user), List.of(UserActivityJob.row(a))));
        final CassandraTarget target = CassandraTarget.local(CASSANDRA.server(), "kappa");
        final TableSpec table = UserActivityJob.activityTable("kappa");
        CassandraSchema.ensure(CASSANDRA.session(), target, table);
        final KeyedJob<?> job = new UserActivityJob().job();
        final JobOptions options = JobOptions.of(workDir.resolve("ingest")).withSnapshotInterval(200).withLocalParallelism(2);
        final Path input = Files.createDirectories(workDir.resolveSibling(workDir.getFileName() + "-input"));
        final Path first = input.resolve("access-1.log");
        final Path second = input.resolve("access-2.log");
        Files.write(first, lines.subList(0, 6_000));
        Files.write(second, lines.subList(6_000, lines.size()));

        try (LocalCluster cluster = LocalCluster.builder().members(3).memberHeap("512m").workDir(workDir).start();
             SchemaLog log = SchemaLog.open(Jobs.logDirectory(job, options), UserActivityJob.ACCESS, PARTITIONS)) {
            final HazelcastInstance client = cluster.newClient();
            client.getMap(UserActivityJob.USERS).putAll(users);
            final SchemaLoader loader = new SchemaLoader(UserActivityJob.ACCESS);
            loader.load(first, SchemaLoader.Format.ACCESSLOG, log, input.resolve("access-1.rejected"), line -> { });
            final Job running = Jobs.submit(client.getJet(), job, options,
                    UserActivityJob.cassandraOutput(target, SinkOptions.defaults()));
            try {
                await().atMost(Duration.ofMinutes(1)).until(() -> !client.getMap(UserActivityJob.ACTIVITY).isEmpty());
            } catch (final ConditionTimeoutException e) {
                // Seen once in a full run: the job's processors on two of three members never finished init.
                throw new AssertionError("the job wrote nothing in a minute; thread dumps: " + ThreadDumps.of(cluster), e);
            }
            cluster.kill(Scenario.notTheCoordinator(cluster, client));
            final LoadReport report = loader.load(second, SchemaLoader.Format.ACCESSLOG, log, input.resolve("access-2.rejected"), line -> { });
            log.appendEndOfStream();
            assertThat(report.rejected()).isZero();

            awaitActivityServed(client, UserActivityJob.ACTIVITY, table, expected, running, Duration.ofMinutes(3));

            // Kappa: the same job replayed from the start beside the live one, into its own map and table.
            final Replay replay = Replay.into("replayed");
            final TableSpec replayTable = replay.table(table);
            CassandraSchema.ensure(CASSANDRA.session(), target, replayTable);
            final Job replaying = Jobs.submit(client.getJet(), job, options.withReplay(replay),
                    UserActivityJob.cassandraOutput(target, SinkOptions.defaults()));
            awaitActivityServed(client, replay.mapName(UserActivityJob.ACTIVITY), replayTable, expected, replaying,
                    Duration.ofMinutes(2));
            assertThat(TableVerifier.verify(CASSANDRA.session(), table, ACTIVITY_COLUMNS, expected).isExact()).as("the live table after the replay")
                    .isTrue();
            replaying.cancel();
            running.cancel();
        }
    }

    /**
     * Waits until both the serving map {@code map} and {@code table} equal the oracle (user →
     * activity row); fails fast when {@code job} fails or is suspended. Prints both comparisons.
     */
    private static void awaitActivityServed(final HazelcastInstance client, final String map, final TableSpec table,
                                            final Map<List<Object>, List<Object>> expected, final Job job, final Duration timeout) {
        final TableVerifier.Report[] tableReport = new TableVerifier.Report[1];
        final Map<List<Object>, List<Object>> served = new HashMap<>();
        try {
            await().atMost(timeout).pollInterval(Duration.ofSeconds(1)).ignoreExceptions()
                    .failFast("job " + job.getName() + " failed or suspended", () -> Scenario.stopped(job))
                    .until(() -> {
                        served.clear();
                        client.<String, UserActivity>getMap(map)
                                .forEach((user, a) -> served.put(List.of(user), List.of(UserActivityJob.row(a))));
                        tableReport[0] = TableVerifier.verify(CASSANDRA.session(), table, ACTIVITY_COLUMNS, expected);
                        return served.equals(expected) && tableReport[0].isExact();
                    });
        } finally {
            System.out.println(table.qualifiedName() + ": " + tableReport[0] + "; " + map + ": " + served.size() + " of "
                    + expected.size() + " users equal the oracle: " + served.equals(expected));
        }
        assertThat(served).isEqualTo(expected);
        assertThat(tableReport[0].isExact()).isTrue();
    }

    private static final List<String> ACTIVITY_COLUMNS = List.of("user", "country", "segment", "requests", "bytes", "server_errors",
            "last_path", "last_time");
}
