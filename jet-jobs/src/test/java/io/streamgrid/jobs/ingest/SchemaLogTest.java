package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.Field;
import io.streamgrid.jobs.schema.IncompatibleSchemaException;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SchemaLogTest {
    private static final EventSchema V1 = EventSchema.builder("trade").stringKey("account", 16).eventTime("ts")
            .string("symbol", 8).float64("price").enumOf("side", "BUY", "SELL").build();
    private static final EventSchema V2 = EventSchema.builder("trade").version(2).stringKey("account", 16).eventTime("ts")
            .string("symbol", 8).float64("price").enumOf("side", "BUY", "SELL")
            .field(Field.string("venue", 6).withDefault("XNAS")).build();

    @TempDir
    Path dir;
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[512]);

    private SchemaRecord trade(final EventSchema schema, final String account, final long ts, final double price) {
        final SchemaLayout layout = schema.layout();
        final SchemaRecord record = new SchemaRecord(layout).wrapForWrite(buffer, 0);
        record.setString(layout.indexOf("account"), account).setTimestamp(layout.indexOf("ts"), ts)
                .setString(layout.indexOf("symbol"), "ACME").setDouble(layout.indexOf("price"), price)
                .setEnum(layout.indexOf("side"), "BUY");
        return record;
    }

    private static List<String> read(final SchemaLog log, final int partition, final EventSchema as) {
        final List<String> out = new ArrayList<>();
        final SchemaLayout layout = as.layout();
        final SchemaRecord record = new SchemaRecord(layout);
        try (PartitionReader reader = log.reader(partition, PartitionReader.START)) {
            int length;
            while ((length = reader.next()) >= 0) {
                if (reader.buffer().getByte(0) != SchemaLayout.KIND_EVENT) {
                    out.add("control " + reader.buffer().getByte(0) + " at " + SchemaLog.controlTime(reader.buffer(), 0));
                    continue;
                }
                record.wrap(reader.buffer(), 0, length);
                assertThat(record.validate()).isNull();
                final int venue = layout.fieldCount() > 5 ? layout.indexOf("venue") : -1;
                out.add(record.getString(layout.indexOf("account")) + "@" + record.eventTime() + "="
                        + record.getDouble(layout.indexOf("price")) + (venue < 0 ? "" : " " + record.getString(venue)));
            }
        }
        return out;
    }

    @Test
    void when_eventsOfStringKeysAppended_then_eachKeyStaysInOnePartitionInAppendOrder() {
        final Map<String, Integer> partitionOfAccount = new HashMap<>();
        try (SchemaLog log = SchemaLog.open(dir, V1, 4)) {
            for (int i = 0; i < 400; i++) {
                final String account = "acct-" + (i % 37);
                final SchemaRecord record = trade(V1, account, 1_000 + i, i);
                final int partition = log.partitionOf(record);
                assertThat(partitionOfAccount.computeIfAbsent(account, a -> partition)).isEqualTo(partition);
                log.append(record);
            }
            assertThat(new java.util.HashSet<>(partitionOfAccount.values())).as("keys spread over partitions").hasSize(4);
            int total = 0;
            for (int p = 0; p < 4; p++) {
                final List<String> events = read(log, p, V1);
                total += events.size();
                for (int i = 1; i < events.size(); i++) {
                    final long previous = Long.parseLong(events.get(i - 1).replaceAll(".*@(\\d+)=.*", "$1"));
                    final long now = Long.parseLong(events.get(i).replaceAll(".*@(\\d+)=.*", "$1"));
                    assertThat(now).as("append order").isGreaterThan(previous);
                }
            }
            assertThat(total).isEqualTo(400);
        }
    }

    @Test
    void when_fieldAddedWithDefault_then_oldAndNewReadersReadRecordsOfBothVersions() {
        try (SchemaLog log = SchemaLog.open(dir, V1, 1)) {
            log.append(trade(V1, "old", 1, 1.5));
        }
        try (SchemaLog log = SchemaLog.open(dir, V2, 1)) {
            final SchemaRecord record = trade(V2, "new", 2, 2.5);
            record.setString(V2.layout().indexOf("venue"), "XLON");
            log.append(record);
            log.appendEndOfStream();
        }
        assertThat(SchemaLog.storedSchema(dir)).as("the log now holds version 2").isEqualTo(V2);
        try (SchemaLog log = SchemaLog.openExisting(dir, V2)) {
            assertThat(read(log, 0, V2)).containsExactly("old@1=1.5 XNAS", "new@2=2.5 XLON", "control 3 at " + Long.MAX_VALUE);
        }
        try (SchemaLog log = SchemaLog.openExisting(dir, V1)) {
            assertThat(read(log, 0, V1)).containsExactly("old@1=1.5", "new@2=2.5", "control 3 at " + Long.MAX_VALUE);
        }
        assertThat(SchemaLog.storedSchema(dir)).as("an older reader does not downgrade the log").isEqualTo(V2);
    }

    @Test
    void when_incompatibleSchemaOpened_then_refusedNamingTheFieldAndNothingChanges() {
        SchemaLog.open(dir, V1, 2).close();
        final EventSchema retyped = EventSchema.builder("trade").version(2).stringKey("account", 16).eventTime("ts")
                .string("symbol", 8).int64("price").enumOf("side", "BUY", "SELL").build();
        final EventSchema noDefault = EventSchema.builder("trade").version(2).stringKey("account", 16).eventTime("ts")
                .string("symbol", 8).float64("price").enumOf("side", "BUY", "SELL").int32("lots").build();
        final EventSchema other = EventSchema.builder("quote").longKey("id").eventTime("ts").build();
        final EventSchema sameVersionChanged = EventSchema.builder("trade").stringKey("account", 16).eventTime("ts")
                .string("symbol", 9).float64("price").enumOf("side", "BUY", "SELL").build();

        assertThatThrownBy(() -> SchemaLog.open(dir, retyped, 2)).isInstanceOf(IncompatibleSchemaException.class)
                .hasMessage("schema trade: field price changed from double to long; a field's type, length and symbols cannot change");
        assertThatThrownBy(() -> SchemaLog.open(dir, noDefault, 2)).isInstanceOf(IncompatibleSchemaException.class)
                .hasMessageContaining("field lots was added without a default");
        assertThatThrownBy(() -> SchemaLog.open(dir, other, 2)).isInstanceOf(IncompatibleSchemaException.class)
                .hasMessageContaining("holds schema trade, not quote");
        assertThatThrownBy(() -> SchemaLog.open(dir, sameVersionChanged, 2)).isInstanceOf(IncompatibleSchemaException.class)
                .hasMessageContaining("field symbol changed from string(8) to string(9)").hasMessageNotContaining("higher version");
        assertThatThrownBy(() -> SchemaLog.open(dir, V1, 3)).hasMessageContaining("has 2 partitions, asked for 3");
        assertThat(SchemaLog.storedSchema(dir)).isEqualTo(V1);
    }

    @Test
    void when_heartbeatAppended_then_readAsControlRecordWithItsTime() {
        try (SchemaLog log = SchemaLog.open(dir, V1, 2)) {
            log.appendHeartbeat(1, 123_456);
            assertThat(read(log, 1, V1)).containsExactly("control 2 at 123456");
            assertThat(read(log, 0, V1)).isEmpty();
        }
    }

    @Test
    void when_aPartitionIsReadRecordByRecord_then_recordsAfterCountsTheRecordsLeft() {
        try (SchemaLog log = SchemaLog.open(dir, V1, 2)) {
            assertThat(log.recordsAfter(0, PartitionReader.START)).isZero();
            final int events = 2_500;
            for (int i = 0; i < events; i++) {
                final SchemaRecord trade = trade(V1, "a", i, 1.0);
                log.append(0, trade.buffer(), trade.offset(), trade.length());
            }
            log.appendHeartbeat(0, events);
            final SchemaRecord other = trade(V1, "b", 1, 1.0);
            log.append(1, other.buffer(), other.offset(), other.length());
            final int inZero = events + 1;
            assertThat(log.recordsAfter(0, PartitionReader.START)).isEqualTo(inZero);
            assertThat(log.records()).isEqualTo(inZero + 1);
            try (PartitionReader reader = log.reader(0, PartitionReader.START)) {
                for (int read = 1; read <= inZero; read++) {
                    assertThat(reader.next()).isPositive();
                    assertThat(log.recordsAfter(0, reader.lastIndex())).as("after record %d", read).isEqualTo(inZero - read);
                }
            }
        }
    }
}
