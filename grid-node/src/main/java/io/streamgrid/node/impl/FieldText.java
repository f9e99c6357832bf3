package io.streamgrid.node.impl;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Instant;
import java.util.Collection;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/** A value's field as people read it, the same in the CLI's tables and on the status page. */
public final class FieldText {
    private FieldText() {
    }

    /**
     * Field {@code field}'s value as one table cell or line, for people (--json stays exact): a
     * time field's epoch milliseconds as an ISO-8601 instant in UTC, a double to three decimals
     * (three significant digits when smaller), text as is, nested values in their JSON form.
     */
    public static String cell(final String field, final Object value) {
        if (value instanceof Long millis && isTimeField(field) && millis >= FIRST_TIME && millis < LAST_TIME) {
            return Instant.ofEpochMilli(millis).toString();
        }
        if (value instanceof Double || value instanceof Float) {
            return decimal(((Number) value).doubleValue());
        }
        return value instanceof Map<?, ?> || value instanceof Collection<?> ? JsonText.of(value) : String.valueOf(value);
    }

    /** Epoch milliseconds shown as instants: 2000-01-01 to 2100-01-01 (a count or an id is rarely in it and named so). */
    private static final long FIRST_TIME = 946_684_800_000L;
    private static final long LAST_TIME = 4_102_444_800_000L;
    /** Field names that hold times: ts, time, …Time, …At, …Start, …End (windowStart, lastSeenAt, eventTime). */
    private static final Pattern TIME_FIELD = Pattern.compile("ts|time|.*(Time|At|Start|End|Ts)");

    private static boolean isTimeField(final String field) {
        return TIME_FIELD.matcher(field).matches();
    }

    private static String decimal(final double value) {
        if (!Double.isFinite(value) || value == 0) {
            return String.valueOf(value);
        }
        if (Math.abs(value) < 0.001) {
            return String.format(Locale.ROOT, "%.3g", value);
        }
        return BigDecimal.valueOf(value).setScale(3, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }
}
