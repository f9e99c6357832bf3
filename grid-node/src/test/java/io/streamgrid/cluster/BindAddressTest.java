package io.streamgrid.cluster;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Design of this test: a member process runs inside a network namespace of the test's own that also
 * has a non-loopback address (192.0.2.10, a documentation address that exists only there). With the shipped configuration ({@code network.host: 127.0.0.1}) the member must be
 * reachable on 127.0.0.1 and refuse connections on 192.0.2.10; with {@code network.bind-any: true}
 * it must accept them there too (which shows the probe can succeed).
 */
class BindAddressTest {
    private static final String OTHER_ADDRESS = "192.0.2.10";
    private static final int PORT = 5701;

    @BeforeAll
    static void needsNamespaces() {
        final String reason = NetworkNamespace.unavailableReason();
        Assumptions.assumeTrue(reason == null, () -> "skipped: " + reason);
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void when_memberRunsWithDefaults_then_itIsNotReachableOnOtherAddressesOfTheHost(final TestInfo test) throws Exception {
        assertThat(reachableOnOtherAddress(test, "")).as("reachable on " + OTHER_ADDRESS).isFalse();
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void when_bindAnyIsTrue_then_itIsReachableOnEveryAddress(final TestInfo test) throws Exception {
        assertThat(reachableOnOtherAddress(test, "  bind-any: true\n")).as("reachable on " + OTHER_ADDRESS).isTrue();
    }

    private static boolean reachableOnOtherAddress(final TestInfo test, final String extraNetworkSettings) throws Exception {
        final Path workDir = TestWorkDir.of(test);
        Files.createDirectories(workDir);
        final Path config = Files.writeString(workDir.resolve("member.yaml"), "cluster-name: bind-test\nnetwork:\n"
                + "  host: 127.0.0.1\n  port: " + PORT + "\n  members: [127.0.0.1:" + PORT + "]\n" + extraNetworkSettings
                + "data-dir: " + workDir.resolve("data").toAbsolutePath() + "\n");
        final List<String> command = JvmCommands.cliCommand(JvmCommands.writeJvmOptions(workDir), "256m",
                System.getProperty("java.class.path"), null,
                List.of("node", "--config", config.toAbsolutePath().toString(), "--parent-pid", Long.toString(ProcessHandle.current().pid())));
        try (NetworkNamespace namespace = NetworkNamespace.create("bind")) {
            namespace.addHostAddress(OTHER_ADDRESS + "/32");
            final Process member = namespace.start(command, workDir.resolve("member.log"));
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
            while (!namespace.canConnect("127.0.0.1", PORT)) {
                assertThat(member.isAlive()).as("member alive; see " + workDir.resolve("member.log")).isTrue();
                assertThat(System.nanoTime()).as("member listening on 127.0.0.1:" + PORT).isLessThan(deadline);
                Thread.sleep(250);
            }
            final boolean reachable = namespace.canConnect(OTHER_ADDRESS, PORT);
            System.out.println("member (" + (extraNetworkSettings.isBlank() ? "defaults" : extraNetworkSettings.strip())
                    + ") reachable on 127.0.0.1: true, on " + OTHER_ADDRESS + ": " + reachable);
            return reachable;
        }
    }
}
