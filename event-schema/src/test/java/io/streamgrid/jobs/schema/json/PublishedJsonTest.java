package io.streamgrid.jobs.schema.json;

import io.streamgrid.jobs.schema.PublishedSequence;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.Field;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link PublishedJson}, the fast way, against the full way ({@link FlatJson} then
 * {@link RecordEncoder#encodePublished}) over many events, plain and mutated: whatever the fast way
 * encodes must be byte for byte what the full way encodes, and it must decline every event the
 * full way rejects.
 */
class PublishedJsonTest {
    private static final EventSchema SCHEMA = EventSchema.builder("mixed").stringKey("account", 12).eventTime("ts")
            .int32("qty").float64("price").bool("buy").enumOf("side", "BID", "ASK", "MID").string("note", 16).int64("id")
            .build();
    private static final EventSchema WITH_DEFAULT = EventSchema.builder("defaulted").longKey("user").eventTime("ts")
            .field(Field.string("channel", 8).withDefault("web")).build();
    private static final long SEQUENCE = PublishedSequence.of(PublishedSequence.FIRST_SLOT, 42);

    @Test
    void when_eventsAreInThePlainForm_then_theFastWayEncodesThemAsTheFullWay() {
        final Random random = new Random(1);
        final Comparison comparison = new Comparison(SCHEMA);
        for (int i = 0; i < 20_000; i++) {
            comparison.check(plain(random));
        }
        System.out.printf("plain events: %d of %d encoded the fast way, all equal to the full way%n", comparison.fast, comparison.total);
        assertThat(comparison.fast).as("plain events the fast way takes").isEqualTo(comparison.total);
    }

    @Test
    void when_eventsAreMutated_then_theFastWayEitherEncodesThemAsTheFullWayOrDeclines() {
        final Random random = new Random(2);
        final Comparison comparison = new Comparison(SCHEMA);
        for (int i = 0; i < 100_000; i++) {
            comparison.check(mutated(plain(random), random));
        }
        System.out.printf("mutated events: %d of %d encoded the fast way, %d rejected by the full way (all declined by the fast"
                + " way)%n", comparison.fast, comparison.total, comparison.rejected);
        // Both kinds must occur in numbers, or the comparison proves nothing.
        assertThat(comparison.fast).isGreaterThan(10_000);
        assertThat(comparison.rejected).isGreaterThan(10_000);
    }

    @Test
    void when_aFieldWithADefaultIsLeftOut_then_theFullWayFillsItIn() {
        final Comparison comparison = new Comparison(WITH_DEFAULT);
        comparison.check("{\"user\":7,\"ts\":1767225600000}");
        comparison.check("{\"user\":7,\"ts\":1767225600000,\"channel\":\"app\"}");
        assertThat(comparison.fast).isEqualTo(1);
        assertThat(comparison.rejected).isZero();
    }

    /** An event as the client's builder writes it: every field, in any order. */
    private static String plain(final Random random) {
        final List<String> fields = new ArrayList<>(List.of(
                "\"account\":\"" + word(random, 1 + random.nextInt(12)) + "\"",
                "\"ts\":" + (random.nextBoolean() ? random.nextLong(0, 4_000_000_000_000L) : random.nextInt(1000)),
                "\"qty\":" + (random.nextBoolean() ? random.nextInt() : random.nextInt(100) - 50),
                "\"price\":" + switch (random.nextInt(4)) {
                    case 0 -> Double.toString(random.nextDouble() * 1e6);
                    case 1 -> Long.toString(random.nextLong(-1_000_000, 1_000_000));
                    case 2 -> Double.toString(random.nextGaussian() * 1e-9);
                    default -> Double.toString(random.nextLong() * 10.0);
                },
                "\"buy\":" + random.nextBoolean(),
                "\"side\":\"" + List.of("BID", "ASK", "MID").get(random.nextInt(3)) + "\"",
                "\"note\":\"" + word(random, random.nextInt(17)) + "\"",
                "\"id\":" + (random.nextBoolean() ? random.nextLong(-999_999_999_999_999_999L, 999_999_999_999_999_999L)
                        : random.nextInt(10))));
        java.util.Collections.shuffle(fields, random);
        return "{" + String.join(",", fields) + "}";
    }

    private static final String[] ODD_PIECES = {
            " ", "\t", "\n", "\u00a0", ",", ":", "{", "}", "\"", "\\", "\\\"", "\\u0041", "é", "€", "0", "-", "+", "1e3", ".5", "5.",
            "true", "false", "null", "1234567890123456789", "99999999999999999999", "-0", "007", "\"seq\":1", "\"qty\":1",
            "\"extra\":1", "NaN", "Infinity", "1e400", "\"BID\"", "\"bid\"", "x", "\u0001", "[]", "2026-01-01T00:00:00Z",
            "\"2026-01-01T00:00:00Z\"", "\"17\"", "2147483648", "-2147483649", "\"ABCDEFGHIJKLMNOPQ\""};

    /** {@code event} with one change (a quarter of them two): a piece inserted, a span deleted or replaced. */
    private static String mutated(final String event, final Random random) {
        String text = event;
        for (int changes = random.nextInt(4) == 0 ? 2 : 1; changes > 0 && !text.isEmpty(); changes--) {
            final int at = random.nextInt(text.length() + 1);
            final String piece = ODD_PIECES[random.nextInt(ODD_PIECES.length)];
            text = switch (random.nextInt(3)) {
                case 0 -> text.substring(0, at) + piece + text.substring(at);
                case 1 -> text.substring(0, at) + text.substring(Math.min(text.length(), at + 1 + random.nextInt(6)));
                default -> text.substring(0, at) + piece + text.substring(Math.min(text.length(), at + 1 + random.nextInt(4)));
            };
        }
        return text;
    }

    private static String word(final Random random, final int length) {
        final StringBuilder word = new StringBuilder();
        while (word.length() < length) {
            final char c = (char) (' ' + random.nextInt(95)); // printable ASCII but the two a JSON string escapes
            if (c != '"' && c != '\\') {
                word.append(c);
            }
        }
        return word.toString();
    }

    /** Runs both ways over events and checks they agree; counts what happened. */
    private static final class Comparison {
        private final PublishedJson fastWay;
        private final RecordEncoder fullWay;
        private int total;
        private int fast;
        private int rejected;

        Comparison(final EventSchema schema) {
            this.fastWay = new PublishedJson(schema);
            this.fullWay = new RecordEncoder(schema);
        }

        void check(final String event) {
            total++;
            byte[] expected = null;
            try {
                final SchemaRecord full = fullWay.encodePublished(FlatJson.parse(event), SEQUENCE);
                expected = bytes(full);
            } catch (final IllegalArgumentException e) {
                rejected++;
            }
            final byte[] utf8 = ("  " + event + "  ").getBytes(StandardCharsets.UTF_8); // the event amid other bytes
            final SchemaRecord encoded = fastWay.encode(utf8, 2, utf8.length - 2, SEQUENCE);
            if (encoded == null) {
                return;
            }
            fast++;
            assertThat(expected).as("the full way rejects %s, the fast way took it", event).isNotNull();
            assertThat(bytes(encoded)).as("the record of %s", event).isEqualTo(expected);
        }

        private static byte[] bytes(final SchemaRecord record) {
            final byte[] bytes = new byte[record.length()];
            record.buffer().getBytes(record.offset(), bytes);
            return bytes;
        }
    }
}
