package io.streamgrid.jobs.ingest;

import org.junit.jupiter.api.Test;

import java.time.Instant;
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
}
