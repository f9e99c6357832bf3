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

    /**
     * One request; {@code bytes} below 0 is written {@code -} (no body); {@code combined} adds a
     * referrer and a user agent. The log format has whole seconds: the time's milliseconds are cut.
     */
    public static String line(final String host, final String user, final long epochMillis, final String method, final String path,
                              final int status, final long bytes, final boolean combined) {
        return host + " - " + user + " [" + TIME.format(Instant.ofEpochMilli(epochMillis)) + "] \"" + method + " " + path
                + " HTTP/1.1\" " + status + " " + (bytes < 0 ? "-" : Long.toString(bytes))
                + (combined ? " \"https://example.com/\" \"Mozilla/5.0 (X11; Linux)\"" : "");
    }
}
