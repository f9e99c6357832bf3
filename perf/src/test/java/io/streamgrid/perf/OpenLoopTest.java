package io.streamgrid.perf;

import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class OpenLoopTest {

    @Test
    void when_oneCallStalls_then_theCallsQueuedBehindItAreChargedTheWait() throws Exception {
        // 1,000 calls/s for 0.5 s; call 100 takes 100 ms. A closed-loop timer would record one slow
        // call; from the schedule, the ~100 calls due during the stall are late too.
        final Histogram latencies = OpenLoop.newHistogram();
        final long calls = OpenLoop.run(1_000, Duration.ofMillis(500), (sequence, scheduled) -> {
            if (sequence == 100) {
                Thread.sleep(100);
            }
        }, latencies, OpenLoop.Wait.PARK);

        assertThat(calls).isEqualTo(500);
        assertThat(latencies.getTotalCount()).isEqualTo(500);
        final long lateCalls = countAbove(latencies, Duration.ofMillis(20).toNanos());
        assertThat(lateCalls).as("calls charged with the stall").isGreaterThanOrEqualTo(70);
        assertThat(latencies.getMaxValue()).isGreaterThanOrEqualTo(Duration.ofMillis(100).toNanos());
    }

    @Test
    void when_callsAreFast_then_theyFollowTheSchedule() throws Exception {
        final Histogram latencies = OpenLoop.newHistogram();
        final long start = System.nanoTime();
        OpenLoop.run(2_000, Duration.ofMillis(300), (sequence, scheduled) -> { }, latencies, OpenLoop.Wait.SPIN);
        final long elapsedMs = (System.nanoTime() - start) / 1_000_000;

        assertThat(latencies.getTotalCount()).isEqualTo(600);
        assertThat(elapsedMs).as("a fixed-rate run lasts its duration").isBetween(290L, 2_000L);
    }

    @Test
    void when_rateIsNotPositive_then_refusedNamingIt() {
        assertThatThrownBy(() -> OpenLoop.run(0, Duration.ofSeconds(1), (s, t) -> { }, OpenLoop.newHistogram(),
                OpenLoop.Wait.PARK)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("was 0.0");
    }

    private static long countAbove(final Histogram histogram, final long nanos) {
        long count = 0;
        for (final var value : histogram.recordedValues()) {
            if (value.getValueIteratedTo() > nanos) {
                count += value.getCountAtValueIteratedTo();
            }
        }
        return count;
    }
}
