package io.streamgrid.cli;

import io.streamgrid.cluster.DetachedCluster;
import io.streamgrid.cluster.TestWorkDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Design of this test: `cluster start --config` leaves member JVMs running after the command returns;
 * `cluster status --json` finds them through the state file and reports a safe cluster; `job resume`
 * of a job the cluster does not have is a user mistake (exit 2, one line); `cluster stop` ends every
 * one of them by PID. The finally block stops anything a failure left behind.
 */
class ClusterCommandTest {
    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void when_clusterStartedByCli_then_statusReportsItAndStopEndsEveryMember(final TestInfo test) throws Exception {
        final Path workDir = TestWorkDir.of(test);
        Files.createDirectories(workDir);
        // The members' configuration, as a user keeps it: its cluster-name names the cluster.
        final String clusterName = "cli-" + ProcessHandle.current().pid();
        final Path config = Files.writeString(workDir.resolve("streamgrid.yaml"), "cluster-name: " + clusterName + "\n");
        try {
            final String[] started = run("cluster", "start", "--members", "2", "--base-port", "0", "--heap", "256m",
                    "--work-dir", workDir.toString(), "--config", config.toString());
            assertThat(started[0]).as(started[2]).isEqualTo("0");
            assertThat(started[1]).contains("cluster '" + clusterName + "' running with " + config);
            final List<DetachedCluster.Member> members = DetachedCluster.load(workDir).orElseThrow().members();
            assertThat(members).hasSize(2).allSatisfy(m -> assertThat(m.process()).isPresent());
            // An operator's members are long-lived: they get the member-only flags (heap pre-touched).
            for (final DetachedCluster.Member member : members) {
                final String commandLine = Files.readString(Path.of("/proc", Long.toString(member.pid()), "cmdline"));
                assertThat(commandLine).as("command line of pid " + member.pid()).contains("member-jvm.options")
                        .contains("--config=" + config.toAbsolutePath());
            }

            final String[] again = run("cluster", "start", "--base-port", "0", "--work-dir", workDir.toString());
            assertThat(again[0]).isEqualTo("2");
            assertThat(again[2]).contains("still running");

            final String[] status = run("cluster", "status", "--json", "--work-dir", workDir.toString());
            assertThat(status[0]).isEqualTo("0");
            assertThat(status[1]).contains("\"answered\":2", "\"safe\":true", "\"clusterSize\":2");

            final String firstMember = "127.0.0.1:" + members.get(0).port();
            final String[] resumed = run("job", "resume", "no-such-job", "--member", firstMember, "--config", config.toString());
            assertThat(resumed[0]).as(resumed[2]).isEqualTo("2");
            assertThat(resumed[2]).contains("no job named 'no-such-job' in the cluster: see 'streamgrid job list'");

            final String[] stopped = run("cluster", "stop", "--work-dir", workDir.toString());
            assertThat(stopped[0]).isEqualTo("0");
            for (final DetachedCluster.Member member : members) {
                assertThat(ProcessHandle.of(member.pid()).map(ProcessHandle::isAlive).orElse(false))
                        .as("pid " + member.pid() + " alive after stop").isFalse();
            }
            final String[] statusAfter = run("cluster", "status", "--work-dir", workDir.toString());
            assertThat(statusAfter[0]).isEqualTo("1");
        } finally {
            DetachedCluster.load(workDir).ifPresent(c -> c.stop(workDir, Duration.ofSeconds(5), line -> { }));
        }
    }

    /** Exit code, standard output, standard error. */
    private static String[] run(final String... args) {
        final StringWriter out = new StringWriter();
        final StringWriter err = new StringWriter();
        final int code = StreamGridCli.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
        return new String[] {Integer.toString(code), out.toString(), err.toString()};
    }
}
