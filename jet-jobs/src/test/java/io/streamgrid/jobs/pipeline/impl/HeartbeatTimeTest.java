package io.streamgrid.jobs.pipeline.impl;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class HeartbeatTimeTest {
    @Test
    void when_otherPartitionsAreAhead_then_theIdleOneFollowsThem() {
        assertThat(PartitionTasksP.heartbeatTime(1_000, 5_000, 9_999_999)).isEqualTo(5_000);
    }

    @Test
    void when_noOtherPartitionIsAhead_then_theWallClockDecides() {
        assertThat(PartitionTasksP.heartbeatTime(5_000, 1_000, 9_999_999)).isEqualTo(9_999_999);
        assertThat(PartitionTasksP.heartbeatTime(5_000, Long.MIN_VALUE, 9_999_999)).isEqualTo(9_999_999);
    }

    @Test
    void when_nothingIsAhead_then_noHeartbeat() {
        assertThat(PartitionTasksP.heartbeatTime(5_000, 1_000, 4_000)).isEqualTo(PartitionTasksP.NO_HEARTBEAT);
    }
}
