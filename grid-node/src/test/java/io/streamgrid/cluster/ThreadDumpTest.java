package io.streamgrid.cluster;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** A test that times out on a cluster can leave each member's threads next to its log: what tells a hang from slowness. */
class ThreadDumpTest {
    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void when_threadsAreDumped_then_eachMemberHasItsDumpNextToItsLog(final TestInfo test) throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().members(1).workDir(TestWorkDir.of(test)).start()) {
            final List<String> written = ThreadDumps.of(cluster);

            assertThat(written).hasSize(1);
            final Path dump = Path.of(written.get(0).substring(written.get(0).indexOf(": ") + 2));
            assertThat(dump.getParent()).isEqualTo(cluster.members().get(0).logFile().getParent());
            assertThat(Files.readString(dump)).contains("Full thread dump", "hz.");
        }
    }
}
