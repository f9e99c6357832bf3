package io.streamgrid.cli;

import io.streamgrid.cluster.DetachedCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Design of this test: {@code cluster stop} must never kill a member silently. A stand-in member
 * (a shell that ignores SIGTERM, carrying a member's marker and port on its command line, so the
 * stop recognises it by PID) is recorded as the cluster; stopping it with a 2 s grace must end it
 * with SIGKILL, name it and exit 1. Before, the command printed "cluster stopped" and exited 0.
 */
class ClusterStopTest {
    @TempDir
    Path workDir;

    @Test
    @Timeout(value = 2, unit = TimeUnit.MINUTES)
    void when_aMemberIgnoresSigtermPastTheGrace_then_stopKillsItSaysSoAndExitsNonZero() throws Exception {
        final int port = 23_456;
        final Process member = new ProcessBuilder("bash", "-c", "trap '' TERM; while true; do sleep 0.2; done",
                "-Dstreamgrid.member=stand-in", "127.0.0.1:" + port, "end").start();
        try {
            new DetachedCluster("stand-in", List.of(new DetachedCluster.Member(member.pid(), port))).save(workDir);

            final CliRun stop = CliRun.of("cluster", "stop", "--work-dir", workDir.toString(), "--grace-seconds", "2");

            System.out.println(stop.out() + stop.err());
            assertThat(member.waitFor(20, TimeUnit.SECONDS)).as("the member is gone").isTrue();
            assertThat(stop.code()).isEqualTo(StreamGridCli.EXIT_FAILED);
            assertThat(stop.err()).contains("did not shut down gracefully")
                    .contains("member pid " + member.pid() + " did not finish its graceful shutdown within 2 s of SIGTERM and was "
                            + "killed with SIGKILL");
            assertThat(stop.out()).doesNotContain("cluster stopped (every member");
        } finally {
            member.destroyForcibly();
        }
    }
}
