package io.streamgrid.cluster;

import org.junit.jupiter.api.Assumptions;
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
 * Two hosts, simulated by two network namespaces linked as one network, each member with its own
 * address and data directory, all with the default {@code ingest.kind: chronicle}: a member that
 * joins from the other host refuses to run, naming {@code ingest.kind: kafka}, and the first
 * member says so in its log; a second member on the first host (another address of that host)
 * joins it.
 */
class SingleHostGuardTest {
    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void when_aChronicleClusterSpansTwoHosts_then_theMemberOnTheOtherHostRefusesNamingKafka(final TestInfo test) throws Exception {
        final String reason = NetworkNamespace.unavailableReason();
        Assumptions.assumeTrue(reason == null, () -> "skipped: " + reason);
        final Path workDir = TestWorkDir.of(test).toAbsolutePath();
        Files.createDirectories(workDir);
        final Path jvmOptions = JvmCommands.writeJvmOptions(workDir);
        try (NetworkNamespace hostA = NetworkNamespace.create("hosta");
             NetworkNamespace hostB = NetworkNamespace.create("hostb")) {
            hostA.link(hostB, "10.231.0.1/24", "10.231.0.2/24");
            hostA.addHostAddress("10.231.0.3/32");
            final String cluster = "guard-" + System.nanoTime();
            final Path logA = workDir.resolve("member-a.log");
            hostA.start(member(jvmOptions, workDir, cluster, "10.231.0.1", "a"), logA);
            await().atMost(Duration.ofSeconds(90)).until(() -> Files.exists(logA) && Files.readString(logA).contains("StreamGrid member ready"));

            final Path logB = workDir.resolve("member-b.log");
            final Process memberB = hostB.start(member(jvmOptions, workDir, cluster, "10.231.0.2", "b"), logB);
            assertThat(memberB.waitFor(90, TimeUnit.SECONDS)).as("the member on the other host stops; see " + logB).isTrue();
            final String refused = Files.readString(logB);
            System.out.println("member b exited " + memberB.exitValue() + ": " + refused.lines()
                    .filter(line -> line.contains("ingest.kind")).findFirst().orElse("(no line naming ingest.kind)"));
            assertThat(memberB.exitValue()).isNotZero();
            assertThat(refused).contains("ingest.kind is chronicle", "10.231.0.1", "set ingest.kind: kafka");
            await().atMost(Duration.ofSeconds(30)).until(() -> Files.readString(logA).contains("is on another host"));

            final Path logC = workDir.resolve("member-c.log");
            hostA.start(member(jvmOptions, workDir, cluster, "10.231.0.3", "c"), logC);
            await().atMost(Duration.ofSeconds(90)).until(() -> Files.readString(logC).contains("StreamGrid member ready"));
            assertThat(Files.readString(logC)).contains("members=2").doesNotContain("ingest.kind is chronicle");
        }
    }

    private static List<String> member(final Path jvmOptions, final Path workDir, final String cluster, final String host,
                                       final String name) {
        final List<String> command = new java.util.ArrayList<>(JvmCommands.cliCommand(jvmOptions, "256m",
                System.getProperty("java.class.path"), null, List.of("node")));
        command.addAll(List.of("--cluster-name=" + cluster, "--host=" + host, "--port=5701", "--members=10.231.0.1:5701",
                "--data-dir=" + workDir.resolve("data-" + name), "--metrics-port=6701"));
        return command;
    }
}
