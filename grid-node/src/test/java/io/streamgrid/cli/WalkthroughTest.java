package io.streamgrid.cli;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cluster.MemberProcess;
import io.streamgrid.cluster.TestWorkDir;
import io.streamgrid.jobs.usecase.IpWindowCount;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Design of this test: the README's "try the jobs by hand" on two member processes, through the
 * CLI as a user types it: {@code ingest generate ... --end}, {@code job submit ip-traffic}, then
 * {@code query}, {@code get}, {@code top} and {@code watch}. What {@code query} and {@code get}
 * print must be what a client reads from the map; {@code top} must show both members and the job
 * with its events counted; {@code watch} must print a change within a second of its write.
 */
class WalkthroughTest {
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void when_aUserFollowsTheReadme_then_queryGetAndWatchPrintWhatTheClusterHolds(final TestInfo test) throws Exception {
        final Path workDir = TestWorkDir.of(test);
        Files.createDirectories(workDir);
        final String clusterName = "walk-" + ProcessHandle.current().pid();
        // One file for the members and the CLI, as a user would keep it; the CLI finds the cluster with --member.
        final String config = Files.writeString(workDir.resolve("streamgrid.yaml"), "cluster-name: " + clusterName
                + "\ningest:\n  dir: " + workDir.resolve("ingest").toAbsolutePath() + "\n").toString();
        try (LocalCluster cluster = LocalCluster.builder().members(2).memberHeap("384m").workDir(workDir).clusterName(clusterName)
                .configFile(Path.of(config)).start()) {
            final String member = "--member=" + cluster.members().get(0).address();

            final CliRun generate = CliRun.of("ingest", "generate", "--schema", "request", "--events", "60000", "--end", "--config", config);
            assertThat(generate.code()).as(generate.err()).isZero();
            final CliRun submit = CliRun.of("job", "submit", "ip-traffic", "--config", config, member);
            assertThat(submit.code()).as(submit.err()).isZero();

            final HazelcastInstance client = cluster.newClient();
            final IMap<String, IpWindowCount> windows = client.getMap("state.ip-traffic");
            await().atMost(Duration.ofMinutes(2)).until(() -> windows.size() > 0 && sizeStable(windows));

            final CliRun query = CliRun.of("query", "state.ip-traffic", "--limit", "5", "--json", "--config", config, member);
            assertThat(query.code()).as(query.err()).isZero();
            final Matcher rows = Pattern.compile("\\{\"key\":\"([^\"]+)\",\"value\":\\{.*?\"count\":(\\d+)").matcher(query.out());
            int compared = 0;
            String someKey = null;
            while (rows.find()) {
                assertThat(Long.parseLong(rows.group(2))).as("count of " + rows.group(1)).isEqualTo(windows.get(rows.group(1)).count());
                someKey = rows.group(1);
                compared++;
            }
            assertThat(compared).isEqualTo(5);
            final CliRun get = CliRun.of("get", "state.ip-traffic", someKey, "--config", config, member);
            assertThat(get.code()).as(get.err()).isZero();
            // Field names aligned, times as UTC instants.
            assertThat(get.out().lines().map(l -> l.replaceAll("\\s+", " "))).contains("count " + windows.get(someKey).count(),
                    "ip " + windows.get(someKey).ip(), "windowStart " + java.time.Instant.ofEpochMilli(windows.get(someKey).windowStart()));

            final CliRun top = CliRun.of("top", "--iterations", "6", "--interval-ms", "2000", "--config", config, member);
            assertThat(top.code()).as(top.err()).isZero();
            final String lastScreen = top.out().substring(top.out().lastIndexOf("StreamGrid  "));
            System.out.println(lastScreen);
            assertThat(lastScreen).contains("2 members, safe").contains("RUNNING");
            for (final MemberProcess process : cluster.members()) {
                assertThat(lastScreen).contains(process.address());
            }
            assertThat(lastScreen).containsPattern("ip-traffic +RUNNING +[0-9,]+ +60,000 ");

            final StringWriter out = new StringWriter();
            final AtomicInteger code = new AtomicInteger(-1);
            final Thread watch = new Thread(() -> code.set(StreamGridCli.run(new String[]{"watch", "state.ip-traffic", "--where",
                    "count > 1000000000", "--changes", "1", "--config", config, member}, new PrintWriter(out, true),
                    new PrintWriter(new StringWriter(), true))));
            watch.start();
            await().atMost(Duration.ofSeconds(60)).until(() -> out.toString().contains("-- 0 matching entries"));
            final long written = System.nanoTime();
            windows.set("10.9.9.9@0", new IpWindowCount("10.9.9.9", 0, 60_000, 2_000_000_000L, 1, false));
            await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(5)).until(() -> out.toString().contains("ENTER"));
            final long shownMs = (System.nanoTime() - written) / 1_000_000;
            watch.join(30_000);
            System.out.println(query.out() + get.out() + out);
            System.out.println("watch printed the change " + shownMs + " ms after its write");
            assertThat(code.get()).isZero();
            assertThat(out.toString().lines().toList()).contains("ENTER  10.9.9.9@0  ip=10.9.9.9  windowStart=0  windowEnd=60000  "
                    + "count=2000000000  updateSequence=1  corrected=false");
            assertThat(shownMs).as("ms from the write to watch's line").isLessThan(1_000);
        }
    }

    /** True when the map's size did not change over half a second (the job has caught up with the ended stream). */
    private static boolean sizeStable(final IMap<?, ?> map) throws InterruptedException {
        final int before = map.size();
        Thread.sleep(500);
        return map.size() == before;
    }
}
