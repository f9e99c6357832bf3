package io.streamgrid.client;

import io.streamgrid.cluster.Lan;
import io.streamgrid.cluster.JvmCommands;
import io.streamgrid.cluster.NetworkNamespace;
import io.streamgrid.cluster.TestWorkDir;
import io.streamgrid.jobs.ingest.PublishedRecords;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Several hosts, for real: Linux network namespaces on one LAN (a bridge), each host with its own
 * address and its own data directory — three StreamGrid members in Kafka mode, a Kafka broker on a
 * fourth host, the publishing application on a fifth. While the application publishes, one member
 * host dies (SIGKILL to everything on it), the broker dies (SIGKILL) and comes back, and the
 * application itself is killed and restarted; a check run on the application's host then reads the
 * topic record by record: every sequence exactly once.
 */
class MultiHostPublishTest {
    private static final long EVENTS = 60_000;

    @Tag("soak") // PublishTest (member and publisher kills) and MultiHostKafkaJobsTest (hosts, broker) cover it in part by default; soak only, for 30 minutes
    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void when_aMemberHostTheBrokerAndThePublisherDieMidStream_then_theTopicHoldsEveryEventOnce(final TestInfo test) throws Exception {
        final String reason = NetworkNamespace.unavailableReason();
        Assumptions.assumeTrue(reason == null, () -> "skipped: " + reason);
        try (Lan lan = Lan.create(TestWorkDir.of(test))) {
            final Path workDir = lan.workDir();
            final Path jvmOptions = lan.jvmOptions();
            final String classPath = lan.classPath();
            final String bootstrap = lan.startKafka(lan.host("kafka", 10), 10, 5_000);
            final NetworkNamespace host1 = lan.host("host1", 1);
            final NetworkNamespace host2 = lan.host("host2", 2);
            final NetworkNamespace host3 = lan.host("host3", 3);
            final NetworkNamespace appHost = lan.host("app", 20);
            final String cluster = "multi-host-" + System.nanoTime();
            final String memberList = Lan.memberList(1, 2, 3);
            lan.startMember(host1, 1, cluster, memberList, bootstrap, 4);
            lan.startMember(host2, 2, cluster, memberList, bootstrap, 4);
            lan.startMember(host3, 3, cluster, memberList, bootstrap, 4);
            lan.awaitMembersReady(1, 2, 3);
            await().atMost(Duration.ofMinutes(1)).until(() -> Files.readString(lan.memberLog(3)).contains("members=3")
                    || Files.readString(lan.memberLog(1)).contains("Members {size:3"));

            final List<String> app = List.of(cluster, memberList, "click", "gateway-1", Long.toString(EVENTS), "10000");
            final Path appLog1 = workDir.resolve("app-1.log");
            final Process first = appHost.start(JvmCommands.javaCommand(jvmOptions, "256m", classPath, null,
                    PublishingApp.class.getName(), app), appLog1);
            PublishingApp.awaitAcknowledged(first, appLog1, EVENTS / 4);
            host2.killProcesses();
            System.out.println("host " + host2.name() + " died (SIGKILL to every process on it) while publishing");
            PublishingApp.awaitAcknowledged(first, appLog1, EVENTS * 2 / 5);
            final long brokerPid = lan.killKafka();
            System.out.println("killed the Kafka broker (pid " + brokerPid + ", SIGKILL); its host starts it again after 5 s");
            final long acknowledgedBeforeDeath = PublishingApp.awaitAcknowledged(first, appLog1, EVENTS / 2);
            first.destroyForcibly().waitFor();
            System.out.println("killed the publishing application (SIGKILL) after sequence " + acknowledgedBeforeDeath + " was acknowledged");

            final Path appLog2 = workDir.resolve("app-2.log");
            final Process second = appHost.start(JvmCommands.javaCommand(jvmOptions, "256m", classPath, null,
                    PublishingApp.class.getName(), app), appLog2);
            assertThat(second.waitFor(4, TimeUnit.MINUTES)).as("the second run finishes; see " + appLog2).isTrue();
            final String output = Files.readString(appLog2);
            System.out.println("second run: " + output.lines().filter(l -> l.startsWith("durable") || l.startsWith("done")).toList());
            assertThat(second.exitValue()).as(output).isZero();
            final long durable = Long.parseLong(output.lines().filter(l -> l.startsWith("durable ")).findFirst().orElseThrow().substring(8));
            assertThat(durable).as("every event acknowledged before the application died is durable").isGreaterThanOrEqualTo(acknowledgedBeforeDeath);

            final Path checkLog = workDir.resolve("check.log");
            final Process check = appHost.start(JvmCommands.javaCommand(jvmOptions, "256m", classPath, null,
                    PublishedRecords.class.getName(), List.of(bootstrap, "sg.", "gateway-1", Long.toString(EVENTS))), checkLog);
            assertThat(check.waitFor(3, TimeUnit.MINUTES)).as("the check finishes; see " + checkLog).isTrue();
            final String tally = Files.readString(checkLog).lines().filter(l -> l.contains(" expected, ")).findFirst()
                    .orElseThrow(() -> new AssertionError("no tally in " + checkLog));
            System.out.println(tally);
            assertThat(tally).startsWith(EVENTS + " expected, " + EVENTS + " found, 0 lost, 0 duplicated");
            assertThat(check.exitValue()).isZero();
        }
    }
}
