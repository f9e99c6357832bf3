package io.streamgrid.node.impl;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** Java values as JSON text, for the CLI's {@code --json} output and the status page. */
public final class JsonText {
    private JsonText() {
    }

    /** JSON of a value: numbers and booleans as such, maps and collections nested, null as null, anything else as its text. */
    public static String of(final Object value) {
        if (value == null) {
            return "null";
        }
        if (value instanceof Boolean || value instanceof Integer || value instanceof Long || value instanceof Short
                || value instanceof Byte || value instanceof java.math.BigDecimal || value instanceof java.math.BigInteger) {
            return value.toString();
        }
        if (value instanceof Double || value instanceof Float) {
            final double d = ((Number) value).doubleValue();
            return Double.isFinite(d) ? value.toString() : quoted(value.toString());
        }
        if (value instanceof Map<?, ?> map) {
            final List<String> members = new ArrayList<>();
            map.forEach((k, v) -> members.add(quoted(String.valueOf(k)) + ":" + of(v)));
            return "{" + String.join(",", members) + "}";
        }
        if (value instanceof Collection<?> list) {
            final List<String> items = new ArrayList<>();
            list.forEach(item -> items.add(of(item)));
            return "[" + String.join(",", items) + "]";
        }
        return quoted(value.toString());
    }

    private static String quoted(final String text) {
        final StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        for (int i = 0; i < text.length(); i++) {
            final char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
