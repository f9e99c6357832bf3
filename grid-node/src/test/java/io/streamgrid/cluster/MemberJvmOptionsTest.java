package io.streamgrid.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A cluster built with {@link LocalCluster.Builder#memberJvmOptions()} (cluster start, the
 * benchmarks) starts members that really run with etc/member-jvm.options — read back from the
 * running JVM with jcmd, not from the command line — and one built without (the tests) does not.
 */
class MemberJvmOptionsTest {
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void when_aClusterAsksForTheMemberFlags_then_itsMembersPreTouchTheirHeapAndOthersDoNot(final TestInfo test) throws Exception {
        final Path dir = TestWorkDir.of(test);
        try (LocalCluster serving = LocalCluster.builder().members(1).memberJvmOptions().workDir(dir.resolve("serving")).start();
             LocalCluster plain = LocalCluster.builder().members(1).workDir(dir.resolve("plain")).start()) {
            final String servingFlags = vmFlags(serving.members().get(0).pid());
            final String plainFlags = vmFlags(plain.members().get(0).pid());
            System.out.println("member with the member flags: " + servingFlags.lines().filter(l -> l.contains("PreTouch")).toList());
            assertThat(servingFlags).contains("-XX:+AlwaysPreTouch").contains("-XX:+UseTransparentHugePages");
            assertThat(plainFlags).doesNotContain("-XX:+AlwaysPreTouch");
        }
    }

    /** The flags a running JVM has, as jcmd's VM.flags prints them. */
    private static String vmFlags(final long pid) throws IOException, InterruptedException {
        final Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid), "VM.flags").redirectErrorStream(true).start();
        final String output = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(jcmd.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(jcmd.exitValue()).as(output).isZero();
        return output;
    }
}
