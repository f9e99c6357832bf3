package io.streamgrid.jobs;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import io.streamgrid.client.LocalView;
import io.streamgrid.client.StreamGridClient;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cluster.MemberProcess;
import io.streamgrid.cluster.TestWorkDir;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.GeneratorSpec;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.usecase.IpTrafficJob;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.jobs.window.WindowPolicy;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Design of this test: the status page in a real browser (headless Chromium; skipped with a
 * message where none is installed). Two member processes run ip-traffic over requests appended for
 * about 20 s; the test waits until the member's {@code /status.json} holds a few samples of the job
 * with events counted (Jet collects job metrics every few seconds), then loads that member's page
 * (each member keeps its own chart history): its script must have drawn both members with their partitions, the job's card and
 * a throughput chart with at least two points, the test's own subscription, and entries of the
 * alerts map as a table with readable times (the stream has spiking IPs); the page as served
 * carries the status of its first paint (no "loading…"). A screenshot goes to {@code target/status-page.png}.
 */
class StatusPageTest {
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void when_aJobRuns_then_theStatusPageShowsMembersAndTheJobsChartInABrowser(final TestInfo test) throws Exception {
        final Path workDir = TestWorkDir.of(test);
        Files.createDirectories(workDir);
        final Optional<HeadlessChromium> browser = HeadlessChromium.find(workDir);
        Assumptions.assumeTrue(browser.isPresent(), "no chromium on the PATH: install Debian's chromium (.ci/run does) to run this test");
        final Path ingestDir = workDir.resolve("ingest");
        final GeneratorSpec spec = GeneratorSpec.of(EventType.REQUEST, 11, 200_000, 1_000).withRate(500).withHotKeys(0.05, 60_000);
        final IpTrafficJob job = new IpTrafficJob(new WindowPolicy(WindowDefinition.tumbling(60_000), 2_000, 30_000), 3.0, 100, 3);
        try (LocalCluster cluster = LocalCluster.builder().members(2).memberHeap("384m").workDir(workDir).start();
             SchemaLog log = Scenario.requestLog(ingestDir, 4)) {
            final HazelcastInstance client = cluster.newClient();
            final StreamGridClient streamGrid = StreamGridClient.connect(cluster.clientSettings());
            final LocalView view = streamGrid.localView(job.stateMap(), "count > 100");
            final Job running = Jobs.submit(client.getJet(), job,
                    JobOptions.of(ingestDir).withSnapshotInterval(500).withLocalParallelism(2));
            final Scenario.PacedWriter writer = new Scenario.PacedWriter(spec, log, 20);
            writer.start();
            final MemberProcess first = cluster.members().get(0);
            final String statusJson = first.metricsUrl().replace("/metrics", "/status.json");
            final Pattern samples = Pattern.compile("\"name\":\"" + job.name() + "\".*?\"samples\":\\[(.*?)\\]\\}");
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofSeconds(1)).until(() -> {
                final Matcher found = samples.matcher(MetricsScrape.get(statusJson).body());
                return found.find() && countedSamples(found.group(1)) >= 3;
            });

            await().atMost(Duration.ofMinutes(2)).until(() -> client.getMap(IpTrafficJob.ALERTS_MAP).size() > 0);
            // The member learns of a map another member created through an asynchronous proxy event, and serves its
            // status from a copy up to half a second old: the alerts map shows soon after it exists, not at once.
            await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(500)).untilAsserted(() ->
                    assertThat(MetricsScrape.get(statusJson).body()).contains("\"map\":\"" + IpTrafficJob.ALERTS_MAP + "\""));
            final String page = first.metricsUrl().replace("/metrics", "/"); // the member holding the job's history
            final String dom = browser.get().dumpDom(page, 5_000);
            System.out.println("the page's DOM after its script ran: " + dom.length() + " characters");
            for (final MemberProcess member : cluster.members()) {
                assertThat(dom).contains(member.address());
            }
            assertThat(dom).contains("2 members, safe").contains("data-job=\"" + job.name() + "\"").contains("events in per second");
            final Matcher chart = Pattern.compile("data-job=\"" + job.name() + "\".*?data-points=\"(\\d+)\"", Pattern.DOTALL).matcher(dom);
            assertThat(chart.find()).as("the job's throughput chart").isTrue();
            assertThat(Integer.parseInt(chart.group(1))).as("points in the throughput chart").isGreaterThanOrEqualTo(2);
            final Matcher partitions = Pattern.compile("<tr class=\"member\"><td>[^<]*</td><td>(\\d+)</td>").matcher(dom);
            int total = 0;
            while (partitions.find()) {
                total += Integer.parseInt(partitions.group(1));
            }
            assertThat(total).as("partitions shown for the members").isEqualTo(271);
            // The alerts as a table: a column per field, times as UTC instants (not a record's toString, not epoch milliseconds).
            final Matcher alertTable = Pattern.compile("<table class=\"alerts\" data-map=\"" + IpTrafficJob.ALERTS_MAP
                    + "\">(.*?)</table>", Pattern.DOTALL).matcher(dom);
            assertThat(alertTable.find()).as("the alerts table").isTrue();
            assertThat(alertTable.group(1)).contains("<th>key</th>", "<th>ip</th>", "<th>windowStart</th>", "<th>count</th>")
                    .containsPattern("<td>2026-01-01T\\d\\d:\\d\\d:00Z</td>").doesNotContain("TrafficAlert[");
            assertThat(Pattern.compile("<tr class=\"watermark\"><td>[^<]+#\\d+ @ [^<]+</td><td>[^<]+</td></tr>").matcher(dom).results().count())
                    .as("the job's lowest processor watermarks, each with its lag").isGreaterThanOrEqualTo(2);
            assertThat(dom).as("the watermark lag says what it is").contains("title=\"watermark lag = clock minus watermark");

            // First paint: the page arrives with the status in it — no empty frame waiting for the first poll.
            final String served = MetricsScrape.get(page).body();
            assertThat(served).doesNotContain("loading").doesNotContain("const INITIAL = /*INITIAL_STATUS*/null")
                    .contains("\"clusterSafe\":true");
            final String firstPaint = browser.get().dumpDom(page, 500); // the first poll is due after 2 s: what shows is the served status
            assertThat(firstPaint).contains("2 members, safe").contains("data-job=\"" + job.name() + "\"");
            assertThat(dom).as("the subscription's row").containsPattern("<tr class=\"subscription\"><td>" + job.stateMap()
                    + "</td><td>count &gt; 100</td>");

            final Path screenshot = Path.of("target", "status-page.png");
            Files.createDirectories(screenshot.getParent());
            browser.get().screenshot(page, 5_000, screenshot, 1200, 1000);
            assertThat(Files.size(screenshot)).isGreaterThan(10_000);
            System.out.println("screenshot: " + screenshot.toAbsolutePath());
            writer.finish();
            view.close();
            streamGrid.close();
            running.cancel();
        }
    }

    /** How many of the job's samples have counted events (the second field of each sample). */
    private static int countedSamples(final String samples) {
        int counted = 0;
        final Matcher sample = Pattern.compile("\\[\\d+,(\\d+),").matcher(samples);
        while (sample.find()) {
            counted += Long.parseLong(sample.group(1)) > 0 ? 1 : 0;
        }
        return counted;
    }
}
