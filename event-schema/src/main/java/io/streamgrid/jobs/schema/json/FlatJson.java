package io.streamgrid.jobs.schema.json;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Parses one flat JSON object — string, number, true/false/null values, no nesting — which is all
 * an event line needs. Errors name the position and what was expected.
 */
public final class FlatJson {
    private final String text;
    private int pos;

    private FlatJson(final String text) {
        this.text = text;
    }

    /** Field name to value: String, Double/Long, Boolean or null. */
    public static Map<String, Object> parse(final String text) {
        return new FlatJson(text).object();
    }

    private Map<String, Object> object() {
        final Map<String, Object> fields = new LinkedHashMap<>();
        skipSpace();
        expect('{');
        skipSpace();
        if (peek() == '}') {
            pos++;
            return end(fields);
        }
        while (true) {
            skipSpace();
            final String name = string();
            skipSpace();
            expect(':');
            skipSpace();
            if (fields.put(name, value()) != null) {
                throw error("duplicate field '" + name + "'");
            }
            skipSpace();
            final char c = next("',' or '}'");
            if (c == '}') {
                return end(fields);
            }
            if (c != ',') {
                throw error("expected ',' or '}' but found '" + c + "'", pos - 1);
            }
        }
    }

    private Map<String, Object> end(final Map<String, Object> fields) {
        skipSpace();
        if (pos < text.length()) {
            throw error("unexpected text after the object");
        }
        return fields;
    }

    private Object value() {
        final char c = peek();
        if (c == '"') {
            return string();
        }
        if (c == '{' || c == '[') {
            throw error("nested objects and arrays are not supported");
        }
        if (text.startsWith("true", pos)) {
            pos += 4;
            return Boolean.TRUE;
        }
        if (text.startsWith("false", pos)) {
            pos += 5;
            return Boolean.FALSE;
        }
        if (text.startsWith("null", pos)) {
            pos += 4;
            return null;
        }
        return number();
    }

    private Object number() {
        final int start = pos;
        while (pos < text.length() && "+-0123456789.eE".indexOf(text.charAt(pos)) >= 0) {
            pos++;
        }
        final String digits = text.substring(start, pos);
        if (digits.isEmpty()) {
            throw error("expected a value", start);
        }
        try {
            if (digits.indexOf('.') < 0 && digits.indexOf('e') < 0 && digits.indexOf('E') < 0) {
                return Long.parseLong(digits);
            }
            return Double.parseDouble(digits);
        } catch (final NumberFormatException e) {
            throw error("bad number '" + digits + "'", start);
        }
    }

    private String string() {
        expect('"');
        final StringBuilder out = new StringBuilder();
        while (true) {
            final char c = next("a closing '\"'");
            if (c == '"') {
                return out.toString();
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            final char escaped = next("an escape character");
            switch (escaped) {
                case '"', '\\', '/' -> out.append(escaped);
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case 'r' -> out.append('\r');
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'u' -> {
                    if (pos + 4 > text.length()) {
                        throw error("incomplete \\u escape");
                    }
                    try {
                        out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                    } catch (final NumberFormatException e) {
                        throw error("bad \\u escape");
                    }
                    pos += 4;
                }
                default -> throw error("bad escape '\\" + escaped + "'", pos - 1);
            }
        }
    }

    private void skipSpace() {
        while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
            pos++;
        }
    }

    private char peek() {
        if (pos >= text.length()) {
            throw error("unexpected end of line");
        }
        return text.charAt(pos);
    }

    private char next(final String expected) {
        if (pos >= text.length()) {
            throw error("unexpected end of line, expected " + expected);
        }
        return text.charAt(pos++);
    }

    private void expect(final char c) {
        final char found = next("'" + c + "'");
        if (found != c) {
            throw error("expected '" + c + "' but found '" + found + "'", pos - 1);
        }
    }

    private IllegalArgumentException error(final String message) {
        return error(message, pos);
    }

    private static IllegalArgumentException error(final String message, final int position) {
        return new IllegalArgumentException(message + " at column " + (position + 1));
    }
}
