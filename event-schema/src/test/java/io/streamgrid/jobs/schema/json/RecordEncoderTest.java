package io.streamgrid.jobs.schema.json;

import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.Field;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An event's fields as set ({@link RecordEncoder#encodePublished(RecordEncoder.Fields, long)}, what a
 * Kafka publisher encodes in the application) against the same event as JSON text parsed in full
 * (what a member does): the same record byte for byte, or the same reason.
 */
class RecordEncoderTest {
    private static final EventSchema TRADE = EventSchema.builder("trade").stringKey("account", 8).eventTime("ts")
            .float64("price").field(Field.int32("qty").withDefault(1)).enumOf("side", "BUY", "SELL").build();
    private static final long SEQUENCE = 1L << 48 | 7;

    @Test
    void when_fieldsAreGivenAsSet_then_theRecordOrTheReasonEqualsTheJsonWays() {
        final Object[][] events = {
                {"account", "A1", "ts", 1_767_225_600_000L, "price", 1.5, "qty", 3L, "side", "BUY"},
                {"side", "SELL", "price", 2L, "ts", "2026-01-01T00:00:01Z", "account", "B"},           // any order; qty's default
                {"account", "A1", "price", 1.5, "side", "BUY"},                                          // no ts
                {"account", "A1", "ts", 1L, "price", "cheap", "side", "BUY"},                            // not a number
                {"account", "ABCDEFGHIJ", "ts", 1L, "price", 1.5, "side", "BUY"},                        // too long
                {"account", "A1", "ts", 1L, "price", 1.5, "side", "HOLD"},                               // no such symbol
                {"account", "A1", "ts", 1L, "price", 1.5, "side", "BUY", "venue", "X"},                  // unknown field
                {"account", "A1", "ts", 1L, "price", 1.5, "side", "BUY", "seq", 3L},                     // numbered by the application
                {"account", "A1", "ts", 1L, "price", 1.5, "qty", 3_000_000_000L, "side", "BUY"},        // outside int
                {"account", "A1", "ts", -5L, "price", 1.5, "side", "BUY"},                               // negative time
                {"account", "A1", "ts", 1L, "price", 1.5, "qty", 1.5, "side", "BUY"},                   // not whole
                {"account", 7L, "ts", 1L, "price", 1.5, "side", "BUY"},                                  // not a string
        };
        final RecordEncoder typed = new RecordEncoder(TRADE);
        final RecordEncoder parsed = new RecordEncoder(TRADE);
        int encoded = 0;
        for (final Object[] event : events) {
            final String json = json(event);
            final Outcome viaJson = outcome(() -> parsed.encodePublished(FlatJson.parse(json), SEQUENCE));
            final Outcome asSet = outcome(() -> typed.encodePublished(fields(event), SEQUENCE));
            assertThat(asSet).as(json).isEqualTo(viaJson);
            encoded += asSet.bytes() != null ? 1 : 0;
            System.out.println(json + " -> " + (asSet.bytes() != null ? "encoded" : asSet.reason()));
        }
        assertThat(encoded).as("the valid ones").isEqualTo(2);
    }

    @Test
    void when_aFieldIsSetTwice_then_itIsRefusedAsJsonTextNamingItTwiceIs() {
        final Object[] twice = {"account", "A1", "ts", 1L, "price", 1.5, "side", "BUY", "price", 2.5};
        assertThat(outcome(() -> new RecordEncoder(TRADE).encodePublished(fields(twice), SEQUENCE)).reason())
                .contains("duplicate field 'price'");
        assertThat(outcome(() -> new RecordEncoder(TRADE).encodePublished(FlatJson.parse(json(twice)), SEQUENCE)).reason())
                .contains("duplicate field 'price'");
    }

    private record Outcome(List<Byte> bytes, String reason) {
    }

    private interface Encoding {
        SchemaRecord run();
    }

    private static Outcome outcome(final Encoding encoding) {
        try {
            final SchemaRecord record = encoding.run();
            final List<Byte> bytes = new ArrayList<>();
            for (int i = 0; i < record.length(); i++) {
                bytes.add(record.buffer().getByte(record.offset() + i));
            }
            return new Outcome(bytes, null);
        } catch (final IllegalArgumentException e) {
            return new Outcome(null, e.getMessage().replaceAll("^.*(duplicate field)", "$1"));
        }
    }

    private static RecordEncoder.Fields fields(final Object[] pairs) {
        return new RecordEncoder.Fields() {
            @Override
            public int count() {
                return pairs.length / 2;
            }

            @Override
            public String name(final int index) {
                return (String) pairs[2 * index];
            }

            @Override
            public Object value(final int index) {
                return pairs[2 * index + 1];
            }
        };
    }

    private static String json(final Object[] pairs) {
        final StringBuilder json = new StringBuilder("{");
        for (int i = 0; i < pairs.length; i += 2) {
            json.append(i > 0 ? "," : "").append('"').append(pairs[i]).append("\":");
            json.append(pairs[i + 1] instanceof String text ? "\"" + text + "\"" : pairs[i + 1]);
        }
        return json.append('}').toString();
    }
}
