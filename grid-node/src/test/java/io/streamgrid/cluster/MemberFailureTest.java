package io.streamgrid.cluster;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Design of this test: three member processes hold 100,000 entries written through a client
 * (state maps have one synchronous backup). One member is killed with SIGKILL — no graceful
 * hand-over — and the survivors must still serve every entry with its value, promoting backups.
 */
class MemberFailureTest {
    private static final int ENTRIES = 100_000;

    @Test
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void when_memberKilled_then_everyEntryStillReadable(final TestInfo test) throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().members(3).workDir(TestWorkDir.of(test)).start()) {
            final HazelcastInstance client = cluster.newClient();
            final IMap<Integer, Long> map = client.getMap("state.kill-test");
            final AcknowledgedWriter entries = new AcknowledgedWriter(map, ENTRIES).fill();
            assertThat(map.size()).isEqualTo(ENTRIES);

            cluster.kill(cluster.members().get(1));
            final Duration recovery = cluster.awaitSafe(2, Duration.ofMinutes(2));
            System.out.println("cluster safe with 2 members " + recovery.toMillis() + " ms after kill -9");

            final AcknowledgedWriter.Verification result = entries.verify();
            System.out.println("after kill -9 of one member: " + result);
            assertThat(result.isExact()).as(result.toString()).isTrue();
            assertThat(map.size()).isEqualTo(ENTRIES);
            await().atMost(Duration.ofSeconds(30)).untilAsserted(
                    () -> assertThat(client.getCluster().getMembers()).hasSize(2));
            for (final MemberProcess survivor : cluster.members()) {
                assertThat(survivor.health()).hasValueSatisfying(h -> assertThat(h.clusterSize()).isEqualTo(2));
            }
        }
    }
}
