package io.streamgrid.cli;

import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.LogReader;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ingest generate} in-process against a Chronicle log in a temporary directory: events every
 * job would count as late are refused (exit 2, nothing appended) unless {@code --allow-late}; {@code --live}
 * follows the clock; a mistaken option is named.
 */
class GenerateCommandTest {
    @TempDir
    Path dir;
    private String config;

    @BeforeEach
    void config() throws IOException {
        config = Files.writeString(dir.resolve("sg.yaml"), "ingest:\n  dir: " + dir.resolve("ingest") + "\n  partitions: 2\n").toString();
    }

    @Test
    void when_generatedTwiceWithOneSeed_then_theSecondIsRefusedAndAppendsNothingUnlessAllowLate() {
        final CliRun first = CliRun.of("ingest", "generate", "--events", "2000", "--config", config);
        final CliRun again = CliRun.of("ingest", "generate", "--events", "2000", "--config", config);
        final List<Long> afterRefusal = eventTimes();
        final CliRun allowed = CliRun.of("ingest", "generate", "--events", "2000", "--allow-late", "--config", config);

        assertThat(first.code()).as(first.err()).isZero();
        assertThat(again.code()).isEqualTo(2);
        assertThat(again.errLines()).singleElement().asString()
                .contains("before the latest event", "2026-01-01T00:00:00Z", "nothing was appended", "--live", "--allow-late");
        assertThat(afterRefusal).hasSize(2000);
        assertThat(allowed.code()).as(allowed.err()).isZero();
        assertThat(eventTimes()).hasSize(4000);
    }

    @Test
    void when_theStreamWasEnded_then_moreEventsAreRefusedNamingTheEnd() {
        final CliRun ended = CliRun.of("ingest", "generate", "--events", "500", "--end", "--config", config);
        final CliRun live = CliRun.of("ingest", "generate", "--live", "--duration", "1s", "--config", config);

        assertThat(ended.code()).as(ended.err()).isZero();
        assertThat(live.code()).isEqualTo(2);
        assertThat(live.errLines()).singleElement().asString().contains("was ended", "late", "nothing was appended", "--allow-late");
        assertThat(eventTimes()).hasSize(500);
    }

    @Test
    void when_live_then_eventTimesAreOnTheClockAndLaterEventsWaitForIt() {
        final long before = System.currentTimeMillis();
        final CliRun live = CliRun.of("ingest", "generate", "--live", "--rate", "200", "--duration", "3s", "--backfill", "1s",
                "--disorder-ms", "0", "--late-fraction", "0", "--config", config);
        final long after = System.currentTimeMillis();

        assertThat(live.code()).as(live.err()).isZero();
        assertThat(live.out()).contains("appended 600 request events to");
        final List<Long> times = eventTimes();
        assertThat(times).hasSize(600);
        // The first second of event time (the backfill) goes at once; the other two follow the clock.
        assertThat(times).allSatisfy(t -> assertThat(t).isBetween(before - 1_000, after));
        assertThat(after - before).as("ms the run took: its last event is 2 s after its start on the clock").isGreaterThanOrEqualTo(1_900);
    }

    @Test
    void when_anOptionIsOutOfRangeOrMisplaced_then_exit2NamingIt() {
        final CliRun negative = CliRun.of("ingest", "generate", "--events", "-5", "--config", config);
        final CliRun zeroRate = CliRun.of("ingest", "generate", "--rate", "0", "--config", config);
        final CliRun durationAlone = CliRun.of("ingest", "generate", "--duration", "10m", "--config", config);
        final CliRun notATime = CliRun.of("ingest", "generate", "--live", "--duration", "10", "--config", config);

        assertThat(negative.code()).isEqualTo(2);
        assertThat(negative.errLines()).singleElement().asString().contains("--events must be >= 0, was -5");
        assertThat(zeroRate.errLines()).singleElement().asString().contains("--rate must be positive, was 0");
        assertThat(durationAlone.code()).isEqualTo(2);
        assertThat(durationAlone.errLines()).singleElement().asString().contains("--duration goes with --live");
        assertThat(notATime.code()).isEqualTo(2);
        assertThat(notATime.err()).contains("'10' is not a time: write it as 500ms, 90s, 10m or 2h");
        assertThat(Files.exists(SchemaLog.directoryOf(dir.resolve("ingest"), "request"))).as("no log created by a refused command").isFalse();
    }

    /** Every request event's time in the log, partition by partition. */
    private List<Long> eventTimes() {
        final List<Long> times = new ArrayList<>();
        try (SchemaLog log = SchemaLog.openExisting(SchemaLog.directoryOf(dir.resolve("ingest"), "request"), EventType.REQUEST.schema())) {
            final SchemaRecord record = new SchemaRecord(log.schema().layout());
            for (int p = 0; p < log.partitions(); p++) {
                try (LogReader reader = log.reader(p, LogReader.START)) {
                    int length;
                    while ((length = reader.next()) >= 0) {
                        if (reader.buffer().getByte(0) == SchemaLayout.KIND_EVENT) {
                            record.wrap(reader.buffer(), 0, length);
                            times.add(record.eventTime());
                        }
                    }
                }
            }
        }
        return times;
    }
}
