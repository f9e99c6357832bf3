package io.streamgrid.jobs;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import io.streamgrid.cluster.Lan;
import io.streamgrid.cluster.NetworkNamespace;
import io.streamgrid.cluster.TestWorkDir;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.ingest.GeneratorSpec;
import io.streamgrid.jobs.ingest.KafkaLogs;
import io.streamgrid.jobs.keyed.DoublingJobs;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.pipeline.LateEvent;
import io.streamgrid.jobs.usecase.IpTrafficJob;
import io.streamgrid.jobs.usecase.TrafficAlert;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.jobs.window.WindowPolicy;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Jobs over Kafka on several hosts, for real ({@link Lan}: network namespaces on one bridge, each
 * host its own address and data directory). Three member hosts in Kafka mode, a broker on a fourth,
 * and the test's own process on the LAN as the application host: it submits ip-traffic
 * (exactly-once, 200 ms snapshots) and an emitting pair — {@code doubler} emits into the topic that
 * {@code doubled-totals} reads — and writes both input topics at a steady rate. Mid-stream, in
 * turn: every process on host 2 is killed with SIGKILL; the broker is killed with SIGKILL and its
 * host starts it again 5 s later; a fourth member host joins (partitions migrate to it); host 3
 * leaves gracefully (its partitions migrate away). When the streams have ended, every window
 * count, late event and alert of ip-traffic, and every account's total of the emitting pair, must
 * equal an oracle computed apart from the jobs.
 */
class MultiHostKafkaJobsTest {
    private static final long REQUESTS = 300_000;
    private static final long DISORDER = 2_000;
    private static final long LATENESS = 30_000;
    private static final int PARTITIONS = 6;
    private static final int AMOUNTS = 60_000;
    private static final int ACCOUNTS = 300;
    private static final long STREAM_SECONDS = 60;

    @Test
    @Timeout(value = 10, unit = TimeUnit.MINUTES)
    void when_aHostDiesTheBrokerRestartsAndHostsComeAndGo_then_windowsAndEmittedTotalsEqualTheOracle(final TestInfo test)
            throws Exception {
        final String reason = NetworkNamespace.unavailableReason();
        Assumptions.assumeTrue(reason == null, () -> "skipped: " + reason);
        final GeneratorSpec spec = GeneratorSpec.of(EventType.REQUEST, 44, REQUESTS, 1_000).withRate(1_000)
                .withZipf(0.7).withDisorder(DISORDER, 0.01, 120_000).withHotKeys(0.05, 60_000);
        final IpTrafficJob ipTraffic = new IpTrafficJob(new WindowPolicy(WindowDefinition.tumbling(60_000), DISORDER, LATENESS), 3.0, 100, 3);
        final Scenario.IpTrafficExpected oracle = Scenario.IpTrafficExpected.of(spec, ipTraffic, PARTITIONS);

        try (Lan lan = Lan.create(TestWorkDir.of(test))) {
            final String bootstrap = lan.startKafka(lan.host("kafka", 10), 10, 5_000);
            final NetworkNamespace host2 = lan.host("host2", 2);
            final NetworkNamespace host3 = lan.host("host3", 3);
            final String cluster = "multi-host-jobs-" + System.nanoTime();
            final String memberList = Lan.memberList(1, 2, 3, 4);
            lan.startMember(lan.host("host1", 1), 1, cluster, memberList, bootstrap, PARTITIONS);
            lan.startMember(host2, 2, cluster, memberList, bootstrap, PARTITIONS);
            final Process member3 = lan.startMember(host3, 3, cluster, memberList, bootstrap, PARTITIONS);
            lan.awaitMembersReady(1, 2, 3);
            lan.joinFromThisProcess(100);

            final ClientConfig config = new ClientConfig().setClusterName(cluster);
            config.getNetworkConfig().addAddress(Lan.memberList(1, 2, 3).split(","));
            final HazelcastInstance client = HazelcastClient.newHazelcastClient(config);
            try {
                await().atMost(Duration.ofMinutes(1)).until(() -> client.getCluster().getMembers().size() == 3);
                final KafkaLogs kafka = new KafkaLogs(bootstrap, "sg.", (short) 1);
                final JobOptions options = JobOptions.of(lan.workDir().resolve("unused-ingest-dir")).withKafka(kafka)
                        .withSnapshotInterval(200).withLocalParallelism(2);
                try (EventLog requests = kafka.openOrCreate(EventType.REQUEST.schema(), EventType.REQUEST.schema().name(), PARTITIONS);
                     EventLog amounts = kafka.openOrCreate(DoublingJobs.AMOUNT, DoublingJobs.AMOUNT.name(), PARTITIONS)) {
                    final Job windows = Jobs.submit(client.getJet(), ipTraffic, options);
                    final Job doubler = Jobs.submit(client.getJet(), DoublingJobs.doubler(), options);
                    await().atMost(Duration.ofMinutes(1)).ignoreExceptions().until(() -> {
                        kafka.open(DoublingJobs.DOUBLED, DoublingJobs.DOUBLED.name()).close(); // the doubler has created its topic
                        return true;
                    });
                    final Job totals = Jobs.submit(client.getJet(), DoublingJobs.totals(), options);

                    final Scenario.PacedWriter requestWriter = new Scenario.PacedWriter(spec, requests, STREAM_SECONDS);
                    final Map<Long, String> expectedTotals = new HashMap<>(); // filled by the writer's thread, read after it ends
                    final Scenario.PacedWriter amountWriter = new Scenario.PacedWriter(afterEach -> {
                        try {
                            expectedTotals.putAll(DoublingJobs.appendAmounts(amounts, AMOUNTS, ACCOUNTS, i -> afterEach.run()));
                        } catch (final Exception e) {
                            throw new IllegalStateException("writing the amounts failed", e);
                        }
                    }, AMOUNTS, STREAM_SECONDS);
                    requestWriter.start();
                    amountWriter.start();

                    requestWriter.awaitAppended(REQUESTS / 5);
                    host2.killProcesses();
                    System.out.println("host " + host2.name() + " died (SIGKILL to every process on it) at "
                            + requestWriter.appended.get() + " requests written");
                    requestWriter.awaitAppended(REQUESTS * 2 / 5);
                    System.out.println("killed the Kafka broker (pid " + lan.killKafka() + ", SIGKILL) at "
                            + requestWriter.appended.get() + " requests written; its host starts it again after 5 s");
                    lan.startMember(lan.host("host4", 4), 4, cluster, memberList, bootstrap, PARTITIONS);
                    lan.awaitMembersReady(4);
                    await().atMost(Duration.ofMinutes(1)).until(() -> client.getCluster().getMembers().size() == 3);
                    final long atJoin = requestWriter.appended.get();
                    System.out.println("host 4 joined at " + atJoin + " requests written");
                    member3.destroy(); // SIGTERM: the member shuts down gracefully, its partitions migrate away
                    assertThat(member3.waitFor(2, TimeUnit.MINUTES)).as("host 3's member leaves; see " + lan.memberLog(3)).isTrue();
                    final long atLeave = requestWriter.appended.get();
                    System.out.println("host 3 left (graceful shutdown) at " + atLeave + " requests written");
                    assertThat(atLeave).as("hosts joined and left while the stream was written").isLessThan(REQUESTS);

                    requestWriter.finish();
                    amountWriter.finish();
                    requests.appendEndOfStream();
                    amounts.flush();

                    final Map<String, Long> found = Scenario.awaitWindows(client, ipTraffic, oracle.windows(), windows);
                    final Scenario.WindowDiff diff = Scenario.WindowDiff.of(oracle.windows(), found);
                    System.out.println(oracle.windows().size() + " windows expected, " + found.size() + " found, " + diff.lost()
                            + " lost, " + diff.over() + " over-counted (" + diff.under() + " under-counted, " + diff.extra()
                            + " unexpected); " + REQUESTS + " requests, " + oracle.lateSequences().size() + " late");
                    assertThat(found).isEqualTo(oracle.windows());
                    final TreeSet<Long> late = client.<String, LateEvent>getMap(ipTraffic.lateMap()).values().stream()
                            .map(LateEvent::sequence).collect(Collectors.toCollection(TreeSet::new));
                    assertThat(late).isEqualTo(new TreeSet<>(oracle.lateSequences()));
                    final Map<String, Long> alerts = client.<String, TrafficAlert>getMap(IpTrafficJob.ALERTS_MAP).entrySet().stream()
                            .collect(Collectors.toMap(Map.Entry::getKey, e -> e.getValue().count()));
                    System.out.println("alerts: " + JobTestSupport.diff(oracle.alerts(), alerts));
                    assertThat(oracle.alerts()).as("the stream's spikes raise alerts").isNotEmpty();
                    assertThat(alerts).isEqualTo(oracle.alerts());

                    JobTestSupport.awaitEqual(expectedTotals, () -> Map.copyOf(client.<Long, String>getMap(DoublingJobs.TOTALS)),
                            Duration.ofMinutes(3), totals);
                    System.out.println(AMOUNTS + " expected, " + AMOUNTS + " found, 0 lost, 0 duplicated through the emitting pair"
                            + " (every account's count and doubled sum equal the oracle's)");
                    assertThat(client.getMap(DoublingJobs.totals().rejectedMap()).size()).isZero();
                    windows.cancel();
                    doubler.cancel();
                    totals.cancel();
                }
            } finally {
                client.shutdown();
            }
        }
    }
}
