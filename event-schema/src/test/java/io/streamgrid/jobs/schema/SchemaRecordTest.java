package io.streamgrid.jobs.schema;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SchemaRecordTest {
    private static final EventSchema TRADE = EventSchema.builder("trade")
            .stringKey("account", 16).eventTime("ts").string("symbol", 12).float64("price").int64("quantity")
            .int32("venue_id").bool("aggressive").enumOf("side", "BUY", "SELL").timestamp("settles").build();

    private final SchemaLayout layout = TRADE.layout();
    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);

    private SchemaRecord write(final SchemaLayout target, final String account, final double price) {
        final SchemaRecord record = new SchemaRecord(target).wrapForWrite(buffer, 8);
        record.sequence(42).setString(target.indexOf("account"), account).setTimestamp(target.indexOf("ts"), 1_767_225_600_000L)
                .setString(target.indexOf("symbol"), "ACME").setDouble(target.indexOf("price"), price)
                .setLong(target.indexOf("quantity"), -300).setInt(target.indexOf("venue_id"), 7)
                .setBoolean(target.indexOf("aggressive"), true).setEnum(target.indexOf("side"), "SELL")
                .setTimestamp(target.indexOf("settles"), 1_767_398_400_000L);
        return record;
    }

    @Test
    void when_everyFieldTypeWritten_then_readBackEqual() {
        final SchemaRecord written = write(layout, "Konto-Müller-Ω", 101.25);

        final SchemaRecord read = new SchemaRecord(layout).wrap(buffer, 8, written.length());
        assertThat(read.validate()).isNull();
        assertThat(read.version()).isEqualTo(1);
        assertThat(read.sequence()).isEqualTo(42);
        assertThat(read.getString(layout.indexOf("account"))).isEqualTo("Konto-Müller-Ω");
        assertThat(read.stringLength(layout.indexOf("account"))).isEqualTo("Konto-Müller-Ω".getBytes(java.nio.charset.StandardCharsets.UTF_8).length);
        assertThat(read.eventTime()).isEqualTo(1_767_225_600_000L);
        assertThat(read.stringEquals(layout.indexOf("symbol"), "ACME")).isTrue();
        assertThat(read.stringEquals(layout.indexOf("symbol"), "ACMX")).isFalse();
        assertThat(read.getDouble(layout.indexOf("price"))).isEqualTo(101.25);
        assertThat(read.getLong(layout.indexOf("quantity"))).isEqualTo(-300);
        assertThat(read.getInt(layout.indexOf("venue_id"))).isEqualTo(7);
        assertThat(read.getBoolean(layout.indexOf("aggressive"))).isTrue();
        assertThat(read.getEnum(layout.indexOf("side"))).isEqualTo("SELL");
        assertThat(read.getTimestamp(layout.indexOf("settles"))).isEqualTo(1_767_398_400_000L);
        assertThat(layout.length()).as("header + 2+16 + 8 + 2+12 + 8 + 8 + 4 + 1 + 2 + 8").isEqualTo(12 + 18 + 8 + 14 + 8 + 8 + 4 + 1 + 2 + 8);
    }

    @Test
    void when_valueDoesNotFit_then_refusedNamingTheField() {
        final SchemaRecord record = new SchemaRecord(layout).wrapForWrite(buffer, 0);
        assertThatThrownBy(() -> record.setString(layout.indexOf("symbol"), "THIRTEEN-LONG"))
                .hasMessage("field symbol is 13 bytes long in UTF-8, at most 12 allowed");
        assertThatThrownBy(() -> record.setString(layout.indexOf("symbol"), "ÄÄÄÄÄÄÄ")).hasMessageContaining("14 bytes long");
        assertThatThrownBy(() -> record.setEnum(layout.indexOf("side"), "HOLD")).hasMessageContaining("needs one of [BUY, SELL]");
        assertThatThrownBy(() -> record.setDouble(layout.indexOf("price"), Double.NaN)).hasMessageContaining("price is not a finite number");
        assertThatThrownBy(() -> record.setTimestamp(layout.indexOf("ts"), -1)).hasMessageContaining("ts is a negative timestamp");
        assertThatThrownBy(() -> record.setLong(layout.indexOf("price"), 1)).hasMessageContaining("field price is double, not long");
    }

    @Test
    void when_bytesAreCorrupt_then_validateSaysWhich() {
        final SchemaRecord written = write(layout, "a", 1.0);
        buffer.putShort(8 + layout.offset(layout.indexOf("symbol")), (short) 200, java.nio.ByteOrder.LITTLE_ENDIAN);
        assertThat(new SchemaRecord(layout).wrap(buffer, 8, written.length()).validate())
                .isEqualTo("field symbol is longer than its maximum 12");

        write(layout, "a", 1.0);
        buffer.putShort(8 + layout.offset(layout.indexOf("side")), (short) 5, java.nio.ByteOrder.LITTLE_ENDIAN);
        assertThat(new SchemaRecord(layout).wrap(buffer, 8, written.length()).validate()).isEqualTo("field side has no symbol number 5");
        assertThat(new SchemaRecord(layout).wrap(buffer, 8, 10).validate()).contains("shorter than the 12-byte header");
        buffer.putByte(8, (byte) 3);
        assertThat(new SchemaRecord(layout).wrap(buffer, 8, written.length()).validate()).startsWith("not an event record of schema trade");
    }

    /**
     * The short check every event passes on its way into a job must never accept what the full one
     * refuses, and must accept every sound record of the reader's version (else it saves nothing).
     */
    @Test
    void when_recordsAreCorruptedAtRandom_then_theShortCheckAgreesWithTheFullOne() {
        final java.util.Random random = new java.util.Random(49);
        int sound = 0;
        int refused = 0;
        for (int round = 0; round < 20_000; round++) {
            final SchemaRecord written = write(layout, "a" + random.nextInt(1000), random.nextDouble() * 100);
            final SchemaRecord record = new SchemaRecord(layout).wrap(buffer, 8, written.length());
            assertThat(RecordValidation.isSound(record)).as("a record as written").isTrue();
            int length = written.length();
            for (int flips = random.nextInt(3); flips >= 0; flips--) {
                buffer.putByte(8 + random.nextInt(length), (byte) random.nextInt(256));
            }
            if (random.nextInt(10) == 0) {
                length = Math.max(1, length + random.nextInt(9) - 4);
            }
            final SchemaRecord damaged = new SchemaRecord(layout).wrap(buffer, 8, length);
            final String full = RecordValidation.describeProblem(damaged);
            if (RecordValidation.isSound(damaged)) {
                assertThat(full).as("the full check of what the short one accepted").isNull();
                sound++;
            } else {
                refused++;
            }
            assertThat(damaged.validate()).isEqualTo(full);
        }
        assertThat(sound).as("damaged records the short check still found sound").isPositive();
        assertThat(refused).as("damaged records the short check refused").isPositive();
    }

    @Test
    void when_fieldAddedWithDefault_then_oldAndNewReadersReadBothVersions() {
        final EventSchema v2 = EventSchema.builder("trade").version(2)
                .stringKey("account", 16).eventTime("ts").string("symbol", 12).float64("price").int64("quantity")
                .int32("venue_id").bool("aggressive").enumOf("side", "BUY", "SELL").timestamp("settles")
                .field(Field.string("desk", 8).withDefault("main")).field(Field.float64("fee").withDefault(0.0)).build();
        v2.checkSuccessorOf(TRADE);
        final SchemaLayout layout2 = v2.layout();

        final int v1Length = write(layout, "old", 10.0).length();
        final SchemaRecord newReader = new SchemaRecord(layout2).wrap(buffer, 8, v1Length);
        assertThat(newReader.validate()).isNull();
        assertThat(newReader.getDouble(layout2.indexOf("price"))).isEqualTo(10.0);
        assertThat(newReader.has(layout2.indexOf("desk"))).isFalse();
        assertThat(newReader.getString(layout2.indexOf("desk"))).isEqualTo("main");
        assertThat(newReader.getDouble(layout2.indexOf("fee"))).isEqualTo(0.0);

        final SchemaRecord v2Record = write(layout2, "new", 11.0);
        v2Record.setString(layout2.indexOf("desk"), "fx").setDouble(layout2.indexOf("fee"), 0.5);
        final SchemaRecord oldReader = new SchemaRecord(layout).wrap(buffer, 8, v2Record.length());
        assertThat(new SchemaRecord(layout2).wrap(buffer, 8, v2Record.length()).getString(layout2.indexOf("desk"))).isEqualTo("fx");
        assertThat(oldReader.getString(layout.indexOf("account"))).isEqualTo("new");
        assertThat(oldReader.getDouble(layout.indexOf("price"))).isEqualTo(11.0);
        assertThat(oldReader.validate()).as("an old reader reads what it knows of a later version").isNull();
        assertThat(new SchemaRecord(layout).wrap(buffer, 8, layout.length() - 1).validate())
                .as("a later version's record shorter than this version's cannot be one")
                .isEqualTo("record of schema version 2 is " + (layout.length() - 1) + " bytes, shorter than version 1's " + layout.length());
    }

    @Test
    void when_recordsWrittenAndRead_then_nothingIsAllocated() {
        final com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        final SchemaRecord writer = new SchemaRecord(layout);
        final SchemaRecord reader = new SchemaRecord(layout);
        final int account = layout.indexOf("account");
        final int price = layout.indexOf("price");
        final int side = layout.indexOf("side");
        final StringBuilder text = new StringBuilder("acct-0000");
        long checksum = 0;
        long allocated = 0;
        for (int round = 0; round < 3; round++) { // the first rounds warm the JIT up
            final long before = threads.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 200_000; i++) {
                text.setCharAt(8, (char) ('0' + i % 10));
                writer.wrapForWrite(buffer, 0).sequence(i).setString(account, text).setTimestamp(layout.eventTimeIndex(), i)
                        .setDouble(price, i * 0.5).setEnumOrdinal(side, i & 1);
                reader.wrap(buffer, 0, writer.length());
                checksum += reader.stringLength(account) + (long) reader.getDouble(price) + reader.getEnumOrdinal(side)
                        + (reader.stringEquals(account, text) ? 1 : 0) + (reader.validate() == null ? 1 : 0);
            }
            allocated = threads.getCurrentThreadAllocatedBytes() - before;
        }
        System.out.println("200,000 records written and read: " + allocated + " bytes allocated (checksum " + checksum + ")");
        assertThat(allocated).as("bytes allocated by 200,000 writes and reads").isLessThan(1_024);
    }
}
