package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.kafka.KafkaBroker;
import io.streamgrid.jobs.schema.SchemaLayout;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A load of built-in JSON lines into a Kafka cluster StreamGrid has never used: the first thing
 * the load does is read its progress from the schema topic, which does not exist yet — before, the
 * read waited out its minute and the load failed. The events reach their types' topics once, and
 * the file is then recorded as loaded.
 */
class KafkaLoadLedgerTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void when_theFirstLoadGoesIntoAFreshKafka_then_itsEventsAreInTheirTopicsAndTheFileIsRecordedAsLoaded() throws Exception {
        final Path input = Files.write(dir.resolve("events.jsonl"), List.of(
                "{\"type\":\"click\",\"ts\":1003,\"user\":42,\"item\":1001,\"category\":3,\"action\":\"view\"}",
                "{\"type\":\"click\",\"ts\":1004,\"user\":43,\"item\":1001,\"category\":3,\"action\":\"purchase\"}",
                "{\"type\":\"transaction\",\"ts\":1006,\"user\":42,\"amount_cents\":1999}"));
        try (KafkaBroker broker = KafkaBroker.start(dir.resolve("kafka"), System.out::println)) {
            final KafkaLogs kafka = new KafkaLogs(broker.bootstrapServers(), "sg.", (short) 1);
            try (KafkaLoadLedger ledger = KafkaLoadLedger.open(kafka, input, false);
                 BuiltInLogs logs = new BuiltInLogs(kafka, 2)) {
                assertThat(ledger.resumeAfterLine()).isZero();
                final LoadReport report = new JsonLinesLoader().load(input, logs, dir.resolve("rejected"), ledger, line -> { });
                assertThat(report.loaded()).isEqualTo(3);
            }
            try (EventLog clicks = kafka.open(EventType.CLICK.schema(), "click");
                 EventLog transactions = kafka.open(EventType.TRANSACTION.schema(), "transaction")) {
                assertThat(events(clicks)).isEqualTo(2);
                assertThat(events(transactions)).isEqualTo(1);
            }
            try (KafkaLoadLedger again = KafkaLoadLedger.open(kafka, input, false)) {
                assertThat(again.finished()).as("the file is recorded as loaded").isTrue();
                assertThat(again.resumeAfterLine()).isEqualTo(3);
            }
        }
    }

    /** Events in the log, read committed, until nothing more comes for 2 s. */
    private static long events(final EventLog log) {
        final long[] count = new long[1];
        JobTestSupport.readUntilIdle(log, Duration.ofSeconds(2), (buffer, length) -> {
            if (buffer.getByte(0) == SchemaLayout.KIND_EVENT) {
                count[0]++;
            }
        });
        return count[0];
    }
}
