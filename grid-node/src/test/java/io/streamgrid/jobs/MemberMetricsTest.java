package io.streamgrid.jobs;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import io.streamgrid.client.StreamGridClient;
import io.streamgrid.client.Subscription;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static io.streamgrid.jobs.MetricsScrape.scrape;
import static io.streamgrid.jobs.MetricsScrape.sum;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Design of this test: two member processes (metrics on, as by default), ip-traffic running
 * exactly-once over 120,000 requests appended over about 8 s. Scraped while it runs and once it has
 * caught up: the job's events-in counters rise and, summed over both members, equal the events
 * appended (all valid, none rejected); the job's snapshot, watermark and start series are there;
 * the state map's owned entries summed over the members equal what a client counts; the members
 * own all 271 partitions between them; JVM series are there; a client's subscription to the state map
 * is served once, by the oldest member, with the delivered count the subscription itself has.
 */
class MemberMetricsTest {
    private static final long EVENTS = 120_000;
    private static final int PARTITIONS = 4;

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void when_ipTrafficRuns_then_eachMemberServesItsJobMapAndClusterSeries(final TestInfo test) throws Exception {
        final Path workDir = TestWorkDir.of(test);
        final Path ingestDir = workDir.resolve("ingest");
        final GeneratorSpec spec = GeneratorSpec.of(EventType.REQUEST, 7, EVENTS, 1_000).withRate(500); // 4 minutes of event time: windows close
        final IpTrafficJob job = new IpTrafficJob(new WindowPolicy(WindowDefinition.tumbling(60_000), 2_000, 30_000), 3.0, 100, 3);
        try (LocalCluster cluster = LocalCluster.builder().members(2).memberHeap("384m").workDir(workDir).start();
             SchemaLog log = Scenario.requestLog(ingestDir, PARTITIONS)) {
            final HazelcastInstance client = cluster.newClient();
            final StreamGridClient streamGrid = StreamGridClient.connect(cluster.clientSettings());
            final Subscription subscription = streamGrid.localView(job.stateMap(), "count > 0").subscription();
            final Job running = Jobs.submit(client.getJet(), job,
                    JobOptions.of(ingestDir).withSnapshotInterval(200).withLocalParallelism(2));
            final Scenario.PacedWriter writer = new Scenario.PacedWriter(spec, log, 8);
            writer.start();
            writer.awaitAppended(EVENTS / 4);
            final List<MemberProcess> members = cluster.members();
            await().atMost(Duration.ofMinutes(1)).until(() -> sum(members, "streamgrid_job_events_in_total", job.name()) > 0);
            final double early = sum(members, "streamgrid_job_events_in_total", job.name());
            writer.finish();

            await().atMost(Duration.ofMinutes(2)).until(() -> sum(members, "streamgrid_job_events_in_total", job.name()) == EVENTS);
            final double late = sum(members, "streamgrid_job_late_events_total", job.name());
            final double rejected = sum(members, "streamgrid_job_rejected_records_total", job.name());
            System.out.println(EVENTS + " events appended, " + EVENTS + " counted in by the members' metrics (" + early
                    + " at the first scrape), " + late + " late, " + rejected + " rejected");
            assertThat(early).as("counted while the stream ran").isLessThan(EVENTS);
            assertThat(rejected).isZero();

            await().atMost(Duration.ofSeconds(30)).until(() -> sum(members, "streamgrid_job_snapshots_total", job.name()) > 0);
            final Map<String, Double> first = scrape(members.get(0));
            first.keySet().stream().filter(series -> series.startsWith("streamgrid_")).sorted().limit(40).forEach(System.out::println);
            assertThat(sum(members, "streamgrid_job_last_snapshot_bytes", job.name())).isPositive();
            assertThat(sum(members, "streamgrid_job_last_snapshot_timestamp_seconds", job.name()))
                    .isGreaterThan(System.currentTimeMillis() / 1000.0 - 600);
            final double watermark = sum(List.of(members.get(0)), "streamgrid_job_watermark_timestamp_seconds", job.name());
            assertThat(watermark).as("the watermark in seconds, as the events' times")
                    .isBetween(spec.startTimeMs() / 1000.0, spec.startTimeMs() / 1000.0 + 3600);
            assertThat(sum(members, "streamgrid_job_execution_start_timestamp_seconds", job.name())).isPositive();
            assertThat(first.keySet()).as("records behind, per job").anyMatch(series -> series.startsWith("streamgrid_job_records_behind{")
                    && series.contains(job.name()));
            await().atMost(Duration.ofSeconds(30)).until(() -> sum(members, "streamgrid_job_records_behind", job.name()) == 0);

            final int stateEntries = client.getMap(job.stateMap()).size();
            assertThat(stateEntries).isPositive();
            assertThat(sum(members, "streamgrid_map_entries", "map=\"" + job.stateMap() + "\",role=\"owner\"")).isEqualTo(stateEntries);
            assertThat(sum(members, "streamgrid_map_entries", "map=\"" + job.stateMap() + "\",role=\"backup\"")).isEqualTo(stateEntries);
            assertThat(sum(members, "streamgrid_member_partitions_owned", "")).isEqualTo(271);
            assertThat(first).containsEntry("streamgrid_cluster_members", 2.0).containsEntry("streamgrid_cluster_safe", 1.0);
            assertThat(first.keySet()).anyMatch(series -> series.startsWith("jvm_memory_used_bytes"))
                    .anyMatch(series -> series.startsWith("jvm_threads_current"));
            // A person reading /metrics finds StreamGrid's series first, the JVM's after them.
            final List<String> lines = MetricsScrape.get(members.get(0).metricsUrl()).body().lines().filter(l -> !l.startsWith("#")).toList();
            final int lastOurs = lines.stream().filter(l -> l.startsWith("streamgrid_")).map(lines::lastIndexOf).max(Integer::compare).orElseThrow();
            final int firstJvm = lines.stream().filter(l -> l.startsWith("jvm_")).map(lines::indexOf).min(Integer::compare).orElseThrow();
            assertThat(lastOurs).as("the last streamgrid_ line, before the first jvm_ one at " + firstJvm).isLessThan(firstJvm);

            final Set<String> served = MetricsScrape.names(members.get(0));
            final Set<String> queried = MetricsScrape.dashboardMetricNames();
            queried.removeIf(name -> name.startsWith("streamgrid_sink_")); // a job with a Cassandra sink: CassandraExactlyOnceTest
            System.out.println("the dashboard queries " + queried);
            assertThat(served).as("every series the Grafana dashboard queries is served").containsAll(queried);

            // The subscription's own report, served once (by the oldest member), catches up with its counter.
            final String ofSubscription = "map=\"" + job.stateMap() + "\"";
            await().atMost(Duration.ofSeconds(30)).until(() -> subscription.delivered() > 0
                    && sum(members, "streamgrid_subscription_deltas_delivered_total", ofSubscription) == subscription.delivered());
            int serving = 0;
            for (final MemberProcess member : members) {
                serving += scrape(member).keySet().stream().anyMatch(s -> s.startsWith("streamgrid_subscription_deltas_delivered_total{")) ? 1 : 0;
            }
            System.out.println("subscription: " + subscription.delivered() + " deltas delivered, as the metrics say; served by "
                    + serving + " member");
            assertThat(serving).isEqualTo(1);
            assertThat(sum(members, "streamgrid_subscription_resyncs_total", ofSubscription)).isZero();
            subscription.close();
            streamGrid.close();
            running.cancel();
        }
    }
}
