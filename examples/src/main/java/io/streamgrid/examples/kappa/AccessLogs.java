package io.streamgrid.examples.kappa;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/** Writes access-log lines in the Common or Combined Log Format: for samples, demos and tests. */
public final class AccessLogs {
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ENGLISH)
            .withZone(ZoneOffset.UTC);

    private AccessLogs() {
    }

    /** One request as a web server logs it; {@code bytes} below 0: no body (logged {@code -}, counted as 0). */
    public record Request(String host, String user, long epochMillis, String method, String path, int status, long bytes) {
        /**
         * Its log line; {@code combined} adds a referrer and a user agent. The log format has whole
         * seconds: the time's milliseconds are cut.
         */
        public String line(final boolean combined) {
            return host + " - " + user + " [" + TIME.format(Instant.ofEpochMilli(epochMillis)) + "] \"" + method + " " + path
                    + " HTTP/1.1\" " + status + " " + (bytes < 0 ? "-" : Long.toString(bytes))
                    + (combined ? " \"https://example.com/\" \"Mozilla/5.0 (X11; Linux)\"" : "");
        }
    }
}
