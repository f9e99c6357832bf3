package io.streamgrid.cluster;

import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Design of this test: three member processes with split-brain protection (minimum size 2) run in a
 * network namespace of the test's own, on 127.0.0.1, .2 and .3 (each address is its own source
 * there). The namespace's firewall (nftables) cuts .3 off from the other two. The minority member
 * must refuse state-map writes with SplitBrainProtectionException while the majority keeps
 * serving — and updates and deletes keys that existed before the split; after the cut heals, the
 * clusters merge and every write acknowledged on the majority is there, no key it deleted came back,
 * none of the minority's refused writes is. The scenario runs in {@link SplitBrainDriver}
 * inside the namespace; this test prepares the namespace, runs it and checks its verdict. All
 * traffic stays inside the namespace.
 */
class SplitBrainTest {
    @Test
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void when_oneMemberIsCutOff_then_itRefusesWritesAndNothingAcknowledgedIsLostAfterHealing(final TestInfo test) throws Exception {
        final String reason = NetworkNamespace.unavailableReason();
        Assumptions.assumeTrue(reason == null, () -> "skipped: " + reason);
        final Path workDir = TestWorkDir.of(test).toAbsolutePath();
        Files.createDirectories(workDir);
        final Path log = workDir.resolve("driver.log");
        try (NetworkNamespace namespace = NetworkNamespace.create("split")) {
            Assumptions.assumeTrue(namespace.tryExec("nft", "list", "ruleset").code() == 0,
                    "skipped: nftables (Debian's nftables) is not installed");
            // Each of .2 and .3 becomes the source of connections to it, so the firewall can tell members apart.
            for (final String host : List.of("127.0.0.2", "127.0.0.3")) {
                namespace.exec("ip", "route", "add", "local", host, "dev", "lo", "src", host, "table", "local");
            }
            final Process driver = namespace.start(JvmCommands.javaCommand(JvmCommands.writeJvmOptions(workDir), "256m",
                    System.getProperty("java.class.path"), null, SplitBrainDriver.class.getName(), List.of(workDir.toString())), log);
            final boolean finished = driver.waitFor(5, TimeUnit.MINUTES);
            final String output = Files.readString(log);
            System.out.println(output.lines().filter(line -> !line.startsWith("INFO:") && !line.contains("com.hazelcast")
                    && !line.startsWith("Picked up")).reduce("", (a, b) -> a + b + "\n"));
            assertThat(finished).as("driver finished; see " + log).isTrue();
            assertThat(output).as("driver verdict; see " + log).contains("RESULT: PASS")
                    .containsPattern("(\\d+) writes acknowledged on the majority, \\1 found, 0 lost, 0 wrong after healing")
                    .containsPattern("[1-9]\\d* deletes acknowledged on the majority, 0 of them back after healing");
            assertThat(driver.exitValue()).isZero();
        }
    }
}
