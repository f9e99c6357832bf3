package io.streamgrid.client;

import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cluster.NetworkNamespace;
import io.streamgrid.cluster.TestWorkDir;
import io.streamgrid.jobs.ingest.PublishedRecords;
import io.streamgrid.jobs.kafka.KafkaBroker;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
    private static final String LAN = "10.232.0.";
    private static final Pattern BROKER_PID = Pattern.compile("broker pid (\\d+)");

    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void when_aMemberHostTheBrokerAndThePublisherDieMidStream_then_theTopicHoldsEveryEventOnce(final TestInfo test) throws Exception {
        final String reason = NetworkNamespace.unavailableReason();
        Assumptions.assumeTrue(reason == null, () -> "skipped: " + reason);
        final Path workDir = Files.createDirectories(TestWorkDir.of(test).toAbsolutePath());
        final Path jvmOptions = LocalCluster.writeJvmOptions(workDir);
        final String classPath = System.getProperty("java.class.path");
        try (NetworkNamespace lan = NetworkNamespace.create("lan");
             NetworkNamespace kafkaHost = NetworkNamespace.create("kafka");
             NetworkNamespace host1 = NetworkNamespace.create("host1");
             NetworkNamespace host2 = NetworkNamespace.create("host2");
             NetworkNamespace host3 = NetworkNamespace.create("host3");
             NetworkNamespace appHost = NetworkNamespace.create("app")) {
            lan.addBridge();
            final List<NetworkNamespace> memberHosts = List.of(host1, host2, host3);
            for (int i = 0; i < memberHosts.size(); i++) {
                memberHosts.get(i).plugInto(lan, LAN + (i + 1) + "/24");
            }
            kafkaHost.plugInto(lan, LAN + "10/24");
            appHost.plugInto(lan, LAN + "20/24");

            final Path brokerLog = workDir.resolve("kafka-host.log");
            kafkaHost.start(LocalCluster.javaCommand(jvmOptions, "256m", classPath, "-D" + KafkaBroker.LIB_PROPERTY + "="
                    + KafkaBroker.libDir(), KafkaBrokerHost.class.getName(), List.of(workDir.resolve("kafka-host").toString(), LAN + "10",
                    "5000")), brokerLog);
            final String bootstrap = awaitLine(brokerLog, Pattern.compile("bootstrap (\\S+)"), Duration.ofMinutes(2));
            System.out.println("Kafka broker on host " + kafkaHost.name() + " at " + bootstrap);

            final String cluster = "multi-host-" + System.nanoTime();
            final String memberList = LAN + "1:5701," + LAN + "2:5701," + LAN + "3:5701";
            final List<Path> memberLogs = new ArrayList<>();
            for (int i = 0; i < memberHosts.size(); i++) {
                final Path hostDir = Files.createDirectories(workDir.resolve("host-" + (i + 1)));
                final Path config = Files.writeString(hostDir.resolve("member.yaml"), String.join("\n",
                        "ingest:", "  kind: kafka", "  dir: " + hostDir.resolve("ingest"), "  partitions: 4", "  kafka:",
                        "    bootstrap-servers: " + bootstrap, "    topic-prefix: sg.", ""));
                final List<String> command = new ArrayList<>(LocalCluster.cliCommand(jvmOptions, "384m", classPath, null, List.of("node")));
                command.addAll(List.of("--cluster-name=" + cluster, "--host=" + LAN + (i + 1), "--port=5701", "--members=" + memberList,
                        "--data-dir=" + hostDir.resolve("data"), "--metrics-port=6701", "--config=" + config));
                final Path log = hostDir.resolve("member.log");
                memberHosts.get(i).start(command, log);
                memberLogs.add(log);
            }
            await().atMost(Duration.ofMinutes(2)).until(() -> {
                for (final Path log : memberLogs) {
                    if (!Files.exists(log) || !Files.readString(log).contains("StreamGrid member ready")) {
                        return false;
                    }
                }
                return true;
            });
            await().atMost(Duration.ofMinutes(1)).until(() -> Files.readString(memberLogs.get(2)).contains("members=3")
                    || Files.readString(memberLogs.get(0)).contains("Members {size:3"));

            final List<String> app = List.of(cluster, memberList, "click", "gateway-1", Long.toString(EVENTS), "10000");
            final Path appLog1 = workDir.resolve("app-1.log");
            final Process first = appHost.start(LocalCluster.javaCommand(jvmOptions, "256m", classPath, null,
                    PublishingApp.class.getName(), app), appLog1);
            PublishingApp.awaitAcknowledged(first, appLog1, EVENTS / 4);
            host2.killProcesses();
            System.out.println("host " + host2.name() + " died (SIGKILL to every process on it) while publishing");
            PublishingApp.awaitAcknowledged(first, appLog1, EVENTS * 2 / 5);
            final long brokerPid = Long.parseLong(lastMatch(brokerLog, BROKER_PID));
            ProcessHandle.of(brokerPid).ifPresent(ProcessHandle::destroyForcibly);
            System.out.println("killed the Kafka broker (pid " + brokerPid + ", SIGKILL); its host starts it again after 5 s");
            final long acknowledgedBeforeDeath = PublishingApp.awaitAcknowledged(first, appLog1, EVENTS / 2);
            first.destroyForcibly().waitFor();
            System.out.println("killed the publishing application (SIGKILL) after sequence " + acknowledgedBeforeDeath + " was acknowledged");

            final Path appLog2 = workDir.resolve("app-2.log");
            final Process second = appHost.start(LocalCluster.javaCommand(jvmOptions, "256m", classPath, null,
                    PublishingApp.class.getName(), app), appLog2);
            assertThat(second.waitFor(4, TimeUnit.MINUTES)).as("the second run finishes; see " + appLog2).isTrue();
            final String output = Files.readString(appLog2);
            System.out.println("second run: " + output.lines().filter(l -> l.startsWith("durable") || l.startsWith("done")).toList());
            assertThat(second.exitValue()).as(output).isZero();
            final long durable = Long.parseLong(output.lines().filter(l -> l.startsWith("durable ")).findFirst().orElseThrow().substring(8));
            assertThat(durable).as("every event acknowledged before the application died is durable").isGreaterThanOrEqualTo(acknowledgedBeforeDeath);

            final Path checkLog = workDir.resolve("check.log");
            final Process check = appHost.start(LocalCluster.javaCommand(jvmOptions, "256m", classPath, null,
                    PublishedRecords.class.getName(), List.of(bootstrap, "sg.", "gateway-1", Long.toString(EVENTS))), checkLog);
            assertThat(check.waitFor(3, TimeUnit.MINUTES)).as("the check finishes; see " + checkLog).isTrue();
            final String tally = Files.readString(checkLog).lines().filter(l -> l.contains(" expected, ")).findFirst()
                    .orElseThrow(() -> new AssertionError("no tally in " + checkLog));
            System.out.println(tally);
            assertThat(tally).startsWith(EVENTS + " expected, " + EVENTS + " found, 0 lost, 0 duplicated");
            assertThat(check.exitValue()).isZero();
        }
    }

    private static String awaitLine(final Path log, final Pattern pattern, final Duration timeout) {
        final String[] found = new String[1];
        await().atMost(timeout).pollInterval(Duration.ofMillis(200)).until(() -> {
            if (Files.exists(log)) {
                final Matcher matcher = pattern.matcher(Files.readString(log));
                if (matcher.find()) {
                    found[0] = matcher.group(1);
                    return true;
                }
            }
            return false;
        });
        return found[0];
    }

    private static String lastMatch(final Path log, final Pattern pattern) throws Exception {
        final Matcher matcher = pattern.matcher(Files.readString(log));
        String last = null;
        while (matcher.find()) {
            last = matcher.group(1);
        }
        if (last == null) {
            throw new AssertionError("no match of " + pattern + " in " + log);
        }
        return last;
    }
}
