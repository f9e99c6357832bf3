package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.EventSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A resumed load reads past the lines an earlier load finished, calling {@link LoadLedger#lineDone}
 * for each. Before, that recorded progress again at every batch boundary it passed — going back:
 * a crash while reading past line 20,000 of a load resumed after line 25,000's batch left a ledger
 * saying 10,000, and the next run appended lines 10,001 to 20,000 a second time.
 */
class LoadLedgerTest {
    private static final EventSchema SCHEMA = EventSchema.builder("amount").longKey("account").eventTime("ts").int64("cents").build();

    @TempDir
    Path dir;

    @Test
    void when_aResumedLoadReadsPastFinishedLines_then_itsRecordOfProgressNeverGoesBack() throws Exception {
        final Path ingest = dir.resolve("ingest");
        final Path input = Files.writeString(dir.resolve("input.csv"), "account,ts,cents\n1,2,3\n");
        try (SchemaLog log = SchemaLog.open(SchemaLog.directoryOf(ingest, SCHEMA.name()), SCHEMA, 2)) {
            try (LoadLedger first = LoadLedger.open(ingest, input, List.of(log), false)) {
                for (long line = 1; line <= 25_000; line++) {
                    first.lineDone(line);
                }
            } // killed after line 25,000: the last record of progress says 20,000
            try (LoadLedger resumed = LoadLedger.open(ingest, input, List.of(log), false)) {
                assertThat(resumed.resumeAfterLine()).isEqualTo(20_000);
                for (long line = 1; line <= 15_000; line++) {
                    resumed.lineDone(line); // reading past finished lines
                }
            } // killed while reading past
            try (LoadLedger third = LoadLedger.open(ingest, input, List.of(log), false)) {
                assertThat(third.resumeAfterLine()).as("where the third run resumes").isEqualTo(20_000);
            }
        }
    }
}
