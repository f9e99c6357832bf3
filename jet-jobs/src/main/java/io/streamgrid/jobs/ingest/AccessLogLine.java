package io.streamgrid.jobs.ingest;

import java.time.OffsetDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One line of a web server's access log in the Common Log Format, or the Combined one (with
 * referrer and user agent): {@code host ident user [10/Oct/2026:13:55:36 +0000] "GET /path HTTP/1.1"
 * 200 2326 "referrer" "agent"}. Its values by field name ({@link #FIELDS}); a {@code -} is a value
 * the server did not know, left out (the schema's default, if it has one, else the line is refused).
 */
final class AccessLogLine {
    /** The names a schema loaded from an access log uses for its fields; {@code ts} is the request time. */
    static final List<String> FIELDS = List.of("host", "ident", "user", "ts", "method", "path", "protocol", "status", "bytes",
            "referrer", "agent");
    private static final Pattern LINE = Pattern.compile(
            "^(\\S+) (\\S+) (\\S+) \\[([^\\]]+)\\] \"(\\S+) (\\S+)(?: (\\S+))?\" (\\d{3}|-) (\\d+|-)(?: \"((?:[^\"\\\\]|\\\\.)*)\" \"((?:[^\"\\\\]|\\\\.)*)\")?\\s*$");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ENGLISH);

    private AccessLogLine() {
    }

    /** @throws IllegalArgumentException with the reason, when the line is not an access-log line */
    static Map<String, Object> parse(final String line) {
        final Matcher m = LINE.matcher(line);
        if (!m.matches()) {
            throw new IllegalArgumentException("not a Common or Combined Log Format line");
        }
        final Map<String, Object> values = new HashMap<>();
        for (int group = 1; group <= FIELDS.size(); group++) {
            final String value = m.group(group);
            if (value != null && !value.equals("-")) {
                values.put(FIELDS.get(group - 1), value);
            }
        }
        try {
            values.put("ts", OffsetDateTime.parse(m.group(4), TIME).toInstant().toEpochMilli());
        } catch (final DateTimeParseException e) {
            throw new IllegalArgumentException("request time [" + m.group(4) + "] is not dd/MMM/yyyy:HH:mm:ss +zone");
        }
        return values;
    }
}
