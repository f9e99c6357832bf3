package io.streamgrid.jobs.ingest;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.SplittableRandom;
import java.util.Locale;
import java.time.format.DateTimeParseException;
import java.time.format.DateTimeFormatter;
import java.time.OffsetDateTime;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AccessLogLineTest {
    @Test
    void when_combinedLineHasEscapedQuotes_then_everyPartIsRead() {
        final Map<String, Object> values = AccessLogLine.parse("192.0.2.7 - alice [10/Oct/2026:13:55:36 +0200] "
                + "\"GET /a?q=1 HTTP/1.1\" 200 2326 \"https://ex.com/\" \"Agent \\\"quoted\\\" 1.0\"");
        assertThat(values).containsEntry("host", "192.0.2.7").containsEntry("user", "alice").containsEntry("method", "GET")
                .containsEntry("path", "/a?q=1").containsEntry("protocol", "HTTP/1.1").containsEntry("status", "200")
                .containsEntry("bytes", "2326").containsEntry("referrer", "https://ex.com/")
                .containsEntry("agent", "Agent \\\"quoted\\\" 1.0")
                .containsEntry("ts", Instant.parse("2026-10-10T11:55:36Z").toEpochMilli())
                .doesNotContainKey("ident"); // "-": unknown
    }

    @Test
    void when_commonLineHasNoBody_then_bytesAreLeftOut() {
        final Map<String, Object> values = AccessLogLine.parse("h - - [01/Jan/2026:00:00:00 +0000] \"HEAD / HTTP/1.0\" 304 -");
        assertThat(values).doesNotContainKeys("bytes", "user", "referrer", "agent").containsEntry("status", "304");
    }

    @Test
    void when_lineIsNotARequest_then_theReasonSaysSo() {
        assertThatThrownBy(() -> AccessLogLine.parse("GET / 200")).hasMessage("not a Common or Combined Log Format line");
        assertThatThrownBy(() -> AccessLogLine.parse("h - u [2026-01-01T00:00:00Z] \"GET / HTTP/1.1\" 200 1"))
                .hasMessageContaining("request time [2026-01-01T00:00:00Z] is not dd/MMM/yyyy:HH:mm:ss +zone");
    }

    /**
     * The request time read by position must equal the formatter's reading — for usual times, and
     * for unusual ones (day past the month's end, hour 24, lower-case month, odd offsets), where
     * both must agree on the value or both refuse.
     */
    @Test
    void when_requestTimesAreReadByPosition_then_theyEqualTheFormattersReading() {
        final DateTimeFormatter formatter = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ENGLISH);
        final String[] months = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec", "jan", "Foo"};
        final SplittableRandom random = new SplittableRandom(26);
        int compared = 0;
        int refusedByBoth = 0;
        for (int i = 0; i < 200_000; i++) {
            final String time = String.format(Locale.ROOT, "%02d/%s/%04d:%02d:%02d:%02d %s%02d%02d", random.nextInt(0, 33),
                    months[random.nextInt(random.nextInt(10) == 0 ? months.length : 12)], random.nextInt(1960, 2110),
                    random.nextInt(0, random.nextInt(20) == 0 ? 26 : 24), random.nextInt(0, 61), random.nextInt(0, 61),
                    random.nextBoolean() ? "+" : "-", random.nextInt(0, random.nextInt(20) == 0 ? 20 : 15), random.nextInt(0, 4) * 15);
            Long expected;
            try {
                expected = OffsetDateTime.parse(time, formatter).toInstant().toEpochMilli();
            } catch (final DateTimeParseException e) {
                expected = null;
            }
            if (expected == null) {
                assertThatThrownBy(() -> AccessLogLine.epochMillis(time)).as(time).withFailMessage("%s: read, the formatter refuses it",
                        time).hasMessageContaining("is not dd/MMM/yyyy");
                refusedByBoth++;
            } else {
                assertThat(AccessLogLine.epochMillis(time)).as(time).isEqualTo(expected);
                compared++;
            }
        }
        System.out.println(compared + " times read equal to the formatter's, " + refusedByBoth + " refused by both");
        assertThat(compared).isGreaterThan(100_000);
        assertThat(refusedByBoth).isGreaterThan(1_000);
    }
}
