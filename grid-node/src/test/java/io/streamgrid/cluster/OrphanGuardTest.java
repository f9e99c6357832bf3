package io.streamgrid.cluster;

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
 * Design of this test: a member started with --parent-pid must halt when that process dies, even
 * by SIGKILL (no shutdown hook runs then). A `sleep` process stands in for the owning JVM.
 */
class OrphanGuardTest {
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void when_ownerKilled_then_memberHalts(final TestInfo test) throws Exception {
        final Path dir = TestWorkDir.of(test);
        Files.createDirectories(dir);
        final Process owner = new ProcessBuilder("sleep", "600").start();
        final int port = 29_000 + (int) (ProcessHandle.current().pid() % 900);
        final Process member = new ProcessBuilder(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-Xmx256m",
                "-cp", System.getProperty("java.class.path"), "io.streamgrid.cli.StreamGridCli", "node",
                "--cluster-name=orphan-" + port, "--port=" + port, "--members=127.0.0.1:" + port,
                "--data-dir=" + dir.resolve("data"), "--parent-pid=" + owner.pid()))
                .redirectErrorStream(true).redirectOutput(dir.resolve("member.log").toFile()).start();
        try {
            await().atMost(Duration.ofSeconds(90)).until(
                    () -> MemberHealth.probe("127.0.0.1", port).map(h -> h.isSafeWith(1)).orElse(false));

            owner.destroyForcibly();

            assertThat(member.waitFor(30, TimeUnit.SECONDS)).as("member exited after its owner died").isTrue();
            assertThat(member.exitValue()).isEqualTo(3);
        } finally {
            member.destroyForcibly();
            owner.destroyForcibly();
        }
    }
}
