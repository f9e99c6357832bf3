package io.streamgrid.jobs.ingest;

import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class ProgressTest {
    @Test
    void when_partOfTheWorkIsDone_then_theLineGivesShareRateAndTimeLeft() {
        final AtomicLong now = new AtomicLong(1_000_000_000L);
        final Progress progress = new Progress(now::get);
        now.addAndGet(2_000_000_000L); // 2 s later
        assertThat(progress.of(300_000, 300_000, 1_000_000)).isEqualTo("30 %, 150,000/s, about 5 s left");
        now.addAndGet(598_000_000_000L); // 10 min in: a tenth of a file's bytes, 1,000,000 lines
        assertThat(progress.of(1_000_000, 10, 100)).isEqualTo("10 %, 1,667/s, about 1.5 h left");
        assertThat(progress.of(1_000_000, 0, 0)).isEqualTo("1,667/s");
    }
}
