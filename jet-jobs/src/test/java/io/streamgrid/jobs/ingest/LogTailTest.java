package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.event.EventType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link LogTail} over a Chronicle log: what the last records say about events appended next. */
class LogTailTest {
    private static final Duration PATIENCE = Duration.ofSeconds(2);

    @TempDir
    Path dir;

    @Test
    void when_theLogIsEmpty_then_notEndedAndNoLatestTime() {
        try (SchemaLog log = SchemaLog.open(dir, EventType.REQUEST.schema(), 3)) {
            assertThat(LogTail.of(log, PATIENCE)).isEqualTo(new LogTail(false, Long.MIN_VALUE));
        }
    }

    @Test
    void when_eventsWereAppended_then_theLatestIsTheLatestEventTimeAmongThem() {
        final GeneratorSpec spec = GeneratorSpec.of(EventType.REQUEST, 3, 5_000, 40).withDisorder(2_000, 0.01, 60_000);
        final long[] latest = {Long.MIN_VALUE};
        try (SchemaLog log = SchemaLog.open(dir, EventType.REQUEST.schema(), 3)) {
            new EventGenerator(spec).generate(record -> {
                log.append(record);
                latest[0] = Math.max(latest[0], record.eventTime());
            });
            // 5,000 events over 3 partitions: more than the 64 read back per partition, so the latest is found in the tail.
            final LogTail tail = LogTail.of(log, PATIENCE);
            assertThat(tail.ended()).isFalse();
            assertThat(tail.latestEventTime()).isEqualTo(latest[0]);

            log.appendEndOfStream();
            assertThat(LogTail.of(log, PATIENCE)).isEqualTo(new LogTail(true, latest[0]));
        }
    }
}
