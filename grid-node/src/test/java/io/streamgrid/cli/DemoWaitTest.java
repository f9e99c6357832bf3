package io.streamgrid.cli;

import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A demo's wait for its results is bounded, says what it waits for, and gives up with a clear message. */
class DemoWaitTest {

    @Test
    void when_aReadNeverReturns_then_theWaitGivesUpNamingWhatItWaitedFor() {
        final CountDownLatch never = new CountDownLatch(1);
        final StringWriter printed = new StringWriter();
        final long start = System.nanoTime();

        assertThatThrownBy(() -> Demos.readUntil(new PrintWriter(printed, true), "the positions",
                Duration.ofSeconds(2), Duration.ofSeconds(1), () -> never.await(1, TimeUnit.HOURS), done -> done))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("gave up waiting for the positions after 2 s")
                .hasMessageContaining("did not answer");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
    }

    @Test
    void when_resultsConvergeSlowly_then_progressIsPrintedAndTheLastReadingReturned() throws Exception {
        final AtomicInteger reads = new AtomicInteger();
        final StringWriter printed = new StringWriter();

        final int last = Demos.readUntil(new PrintWriter(printed, true), "the alerts",
                Duration.ofSeconds(30), Duration.ofSeconds(1), reads::incrementAndGet, count -> count >= 6);

        assertThat(last).isEqualTo(6);
        assertThat(printed.toString()).contains("still waiting for the alerts (").contains("s of at most 30)");
    }

    @Test
    void when_resultsNeverConverge_then_theLastReadingIsReturnedAtTheDeadlineSayingItGaveUp() throws Exception {
        final AtomicInteger reads = new AtomicInteger();
        final StringWriter printed = new StringWriter();

        final int last = Demos.readUntil(new PrintWriter(printed, true), "nothing",
                Duration.ofSeconds(2), Duration.ofSeconds(1), reads::incrementAndGet, count -> false);

        assertThat(last).isBetween(2, 5);
        assertThat(printed.toString()).contains("gave up waiting for nothing after 2 s");
    }
}
