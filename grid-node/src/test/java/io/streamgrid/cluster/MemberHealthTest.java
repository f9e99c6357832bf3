package io.streamgrid.cluster;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class MemberHealthTest {
    @Test
    void when_healthJsonParsed_then_fieldsRead() {
        final MemberHealth health = MemberHealth.parse("{\"nodeState\":\"ACTIVE\",\"clusterState\":\"ACTIVE\","
                + "\"clusterSafe\":true,\"migrationQueueSize\":0,\"clusterSize\":3}");

        assertThat(health).isEqualTo(new MemberHealth("ACTIVE", true, 0, 3));
        assertThat(health.isSafeWith(3)).isTrue();
        assertThat(health.isSafeWith(2)).isFalse();
    }

    @Test
    void when_migrationsQueued_then_notSafe() {
        final MemberHealth health = MemberHealth.parse("{\"nodeState\":\"ACTIVE\",\"clusterSafe\":false,"
                + "\"migrationQueueSize\":12,\"clusterSize\":3}");

        assertThat(health.isSafeWith(3)).isFalse();
    }

    @Test
    void when_nothingListens_then_probeIsEmpty() {
        assertThat(MemberHealth.probe("127.0.0.1", 1)).isEmpty();
    }
}
