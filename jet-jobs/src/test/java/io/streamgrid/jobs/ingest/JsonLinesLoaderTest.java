package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class JsonLinesLoaderTest {
    @TempDir
    Path dir;

    @Test
    void when_fileHasGoodAndBadLines_then_goodGoToTheirTypesLogsAndBadAreRejectedWithLineAndReason() throws Exception {
        final Path input = dir.resolve("events.jsonl");
        Files.write(input, List.of(
                "{\"type\":\"request\",\"ts\":1000,\"ip\":\"10.0.0.1\",\"destination\":\"192.168.0.3\",\"bytes\":512,\"status\":200}",
                "{\"type\":\"request\",\"ts\":1001,\"ip\":\"10.0.0.300\",\"destination\":\"192.168.0.3\",\"bytes\":1,\"status\":200}",
                "not json at all",
                "",
                "{\"type\":\"sensor\",\"ts\":1002,\"seq\":77,\"machine\":17,\"kind\":\"temperature\",\"value\":61.5}",
                "{\"type\":\"click\",\"ts\":1003,\"user\":42,\"item\":1001,\"category\":3}",
                "{\"type\":\"click\",\"ts\":1004,\"user\":42,\"item\":1001,\"category\":3,\"action\":\"purchase\"}",
                "{\"type\":\"teleport\",\"ts\":1005}",
                "{\"type\":\"transaction\",\"ts\":1006,\"user\":42,\"amount_cents\":1999}"));
        final Path rejected = dir.resolve("rejected.txt");

        final LoadReport report;
        try (BuiltInLogs logs = new BuiltInLogs(dir.resolve("ingest"), 1)) {
            report = new JsonLinesLoader().load(input, logs, rejected, line -> { });
            final List<String> loaded = new ArrayList<>();
            for (final EventType type : EventType.values()) {
                final SchemaRecord record = new SchemaRecord(type.schema().layout());
                try (LogReader reader = logs.log(type).reader(0, LogReader.START)) {
                    int length;
                    while ((length = reader.next()) > 0) {
                        record.wrap(reader.buffer(), 0, length);
                        assertThat(record.validate()).isNull();
                        loaded.add(type + "/" + record.sequence());
                        if (type == EventType.SENSOR) {
                            assertThat(record.getEnum(record.layout().indexOf("kind"))).isEqualTo("temperature");
                            assertThat(record.getDouble(record.layout().indexOf("value"))).isEqualTo(61.5);
                        }
                        if (type == EventType.REQUEST) {
                            assertThat(record.keyLong()).isEqualTo(0x0A000001L);
                        }
                    }
                }
            }
            assertThat(loaded).containsExactly("REQUEST/1", "SENSOR/77", "CLICK/7", "TRANSACTION/9");
        }

        assertThat(report.lines()).isEqualTo(9);
        assertThat(report.loaded()).isEqualTo(4);
        assertThat(report.rejected()).isEqualTo(4);
        assertThat(Files.readAllLines(rejected)).satisfiesExactly(
                line -> assertThat(line).startsWith("line 2: 'ip' is not an IPv4 address: 10.0.0.300"),
                line -> assertThat(line).startsWith("line 3: expected '{' but found 'n' at column 1"),
                line -> assertThat(line).startsWith("line 6: missing field 'action'"),
                line -> assertThat(line).startsWith("line 8: unknown type 'teleport'"));
    }
}
