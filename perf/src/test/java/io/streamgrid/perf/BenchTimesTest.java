package io.streamgrid.perf;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class BenchTimesTest {
    @TempDir
    Path dir;

    @Test
    void when_everyBenchmarkLeftWasTimedBefore_then_theTimeLeftIsTheirSumLessWhatTheCurrentOneHasRun() {
        final Path file = dir.resolve("times.properties");
        final BenchTimes first = new BenchTimes(file);
        first.record("ingest", true, 60);
        first.record("pattern", true, 120);
        first.record("pattern", false, 900);

        final BenchTimes times = new BenchTimes(file); // as a later run reads them
        final List<String> order = List.of("ingest", "pattern");
        assertThat(times.timeLeft(order, 0, 20, true)).isEqualTo(", about 3 min left"); // 40 + 120 s
        assertThat(times.timeLeft(order, 1, 100, true)).isEqualTo(", about 20 s left");
        assertThat(times.timeLeft(order, 1, 500, true)).as("longer than last time").isEqualTo(", about 0 s left");
        assertThat(times.timeLeft(order, 0, 0, false)).as("ingest was never timed in a full run").isEmpty();
        assertThat(times.timeLeft(List.of("pattern"), 0, 0, false)).isEqualTo(", about 15 min left");
    }

    @Test
    void when_theTimesFileIsMissingOrDamaged_then_thereIsNoEstimate() throws IOException {
        assertThat(new BenchTimes(dir.resolve("none.properties")).timeLeft(List.of("ingest"), 0, 0, true)).isEmpty();
        final Path damaged = dir.resolve("damaged.properties");
        Files.writeString(damaged, "ingest.quick=soon\npattern.quick=\\u12\n");
        final BenchTimes times = new BenchTimes(damaged);
        assertThat(times.secondsOf("ingest", true)).isEqualTo(-1);
        assertThat(times.timeLeft(List.of("ingest"), 0, 0, true)).isEmpty();
    }
}
