package io.streamgrid.jobs.ingest;

import java.time.LocalDate;
import java.time.OffsetDateTime;
import java.time.YearMonth;
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
 * What {@code ingest load --format accesslog} parses with; public for pipelines that parse lines
 * themselves (the enrichment benchmark's plain-Jet subject parses the same way).
 */
public final class AccessLogLine {
    /** The names a schema loaded from an access log uses for its fields; {@code ts} is the request time. */
    public static final List<String> FIELDS = List.of("host", "ident", "user", "ts", "method", "path", "protocol", "status", "bytes",
            "referrer", "agent");
    private static final Pattern LINE = Pattern.compile(
            "^(\\S+) (\\S+) (\\S+) \\[([^\\]]+)\\] \"(\\S+) (\\S+)(?: (\\S+))?\" (\\d{3}|-) (\\d+|-)(?: \"((?:[^\"\\\\]|\\\\.)*)\" \"((?:[^\"\\\\]|\\\\.)*)\")?\\s*$");
    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z", Locale.ENGLISH);
    private static final String MONTHS = "JanFebMarAprMayJunJulAugSepOctNovDec";

    private AccessLogLine() {
    }

    /**
     * The line's values by field name: {@code ts} as epoch milliseconds, the others as the text in
     * the line; a {@code -} is left out.
     *
     * @throws IllegalArgumentException with the reason, when the line is not an access-log line
     */
    public static Map<String, Object> parse(final String line) {
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
        values.put("ts", epochMillis(m.group(4)));
        return values;
    }

    /**
     * The request time as epoch milliseconds. The usual form (two-digit day, English month, four-digit
     * year, 00–23 hours, a valid day of the month, an offset of ±hhmm up to 18 hours) is read by position: the
     * formatter took about a fifth of a line's loading time. Anything else goes to the formatter,
     * which decides (and words the error) as before.
     */
    static long epochMillis(final String time) {
        if (time.length() == 26 && time.charAt(2) == '/' && time.charAt(6) == '/' && time.charAt(11) == ':' && time.charAt(14) == ':'
                && time.charAt(17) == ':' && time.charAt(20) == ' ') {
            final int day = digits(time, 0, 2);
            final int month = month(time);
            final int year = digits(time, 7, 4);
            final int hour = digits(time, 12, 2);
            final int minute = digits(time, 15, 2);
            final int second = digits(time, 18, 2);
            final char sign = time.charAt(21);
            final int offsetHours = digits(time, 22, 2);
            final int offsetMinutes = digits(time, 24, 2);
            if (day >= 1 && month >= 1 && year >= 0 && hour >= 0 && hour <= 23 && minute >= 0 && minute <= 59 && second >= 0
                    && second <= 59 && (sign == '+' || sign == '-') && offsetHours >= 0 && offsetMinutes >= 0 && offsetMinutes <= 59
                    && offsetHours * 60 + offsetMinutes <= 18 * 60 && day <= YearMonth.of(year, month).lengthOfMonth()) {
                final long offsetSeconds = (sign == '-' ? -1 : 1) * (offsetHours * 3_600L + offsetMinutes * 60L);
                final long seconds = LocalDate.of(year, month, day).toEpochDay() * 86_400L + hour * 3_600L + minute * 60L + second
                        - offsetSeconds;
                return seconds * 1_000L;
            }
        }
        try {
            return OffsetDateTime.parse(time, TIME).toInstant().toEpochMilli();
        } catch (final DateTimeParseException e) {
            throw new IllegalArgumentException("request time [" + time + "] is not dd/MMM/yyyy:HH:mm:ss +zone");
        }
    }

    /** The decimal number of {@code count} ASCII digits at {@code from}, or -1 when one is not a digit. */
    private static int digits(final String text, final int from, final int count) {
        int value = 0;
        for (int i = from; i < from + count; i++) {
            final char c = text.charAt(i);
            if (c < '0' || c > '9') {
                return -1;
            }
            value = value * 10 + (c - '0');
        }
        return value;
    }

    /** The month of the English abbreviation at positions 3–5 (as the formatter reads it: case matters), or -1. */
    private static int month(final String time) {
        final int at = MONTHS.indexOf(time.substring(3, 6));
        return at < 0 || at % 3 != 0 ? -1 : at / 3 + 1;
    }
}
