package io.streamgrid.cli;

import io.streamgrid.cq.ValueFields;
import io.streamgrid.node.impl.FieldText;
import io.streamgrid.node.impl.JsonText;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Map entries as text for people (field=value, tables) and as JSON for scripts. Values print by
 * field name, the way a {@code --where} predicate reads them ({@link ValueFields}): records by
 * component, Compact values the CLI has no class for by their Compact fields.
 */
final class ValueText {
    /** A table cell longer than this is cut, ending in "…". */
    private static final int CELL_WIDTH = 40;

    /**
     * The order entries print in: keys of one type in their natural order (numbers as numbers),
     * keys of different types grouped by type.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static final java.util.Comparator<Object> KEY_ORDER = (a, b) -> {
        final int byType = a.getClass().getName().compareTo(b.getClass().getName());
        if (byType != 0) {
            return byType;
        }
        return a instanceof Comparable comparable ? comparable.compareTo(b) : String.valueOf(a).compareTo(String.valueOf(b));
    };

    private ValueText() {
    }

    /** {@code key  field=value field=value …} on one line. */
    static String row(final Object key, final Object value) {
        final StringBuilder line = new StringBuilder(String.valueOf(key));
        ValueFields.of(value).forEach((field, v) -> line.append("  ").append(field).append('=').append(cell(field, v)));
        return line.toString();
    }

    /** A value's fields one per line, the values aligned: {@code name   value}. */
    static List<String> fields(final Object value) {
        final Map<String, Object> fields = ValueFields.of(value);
        final int width = fields.keySet().stream().mapToInt(String::length).max().orElse(0);
        final List<String> lines = new ArrayList<>();
        fields.forEach((field, v) -> lines.add(field + " ".repeat(width - field.length() + 2) + cell(field, v)));
        return lines;
    }

    /**
     * What the fields StreamGrid's window results carry mean, for a legend under a table: every
     * windowed job writes them, so they are the framework's words, not one job's.
     */
    private static final List<Map.Entry<String, String>> LEGEND = List.of(
            Map.entry("updateSequence", "1 = the window's on-time result; 2, 3, ... = corrected that many times by late events"),
            Map.entry("corrected", "true = late events changed this result after its window first closed"));

    /** Legend lines ("  field: meaning") for those of {@code fields} that need one, in the legend's order; none when none do. */
    static List<String> legend(final Collection<String> fields) {
        final List<String> lines = new ArrayList<>();
        for (final Map.Entry<String, String> entry : LEGEND) {
            if (fields.contains(entry.getKey())) {
                lines.add("  " + entry.getKey() + ": " + entry.getValue());
            }
        }
        return lines;
    }

    /** The fields of {@code values}, in order of first appearance. */
    static Set<String> fieldsOf(final Collection<?> values) {
        final Set<String> fields = new LinkedHashSet<>();
        values.forEach(value -> fields.addAll(ValueFields.of(value).keySet()));
        return fields;
    }

    /** Field {@code field}'s value as one table cell or line, for people ({@link FieldText#cell}). */
    static String cell(final String field, final Object value) {
        return FieldText.cell(field, value);
    }

    /** Entries as a table: the key, then one column per field (in order of first appearance). */
    static List<String> table(final List<Map.Entry<Object, Object>> entries) {
        final Set<String> columns = new LinkedHashSet<>();
        final List<Map<String, Object>> rows = new ArrayList<>();
        for (final Map.Entry<Object, Object> entry : entries) {
            final Map<String, Object> fields = ValueFields.of(entry.getValue());
            columns.addAll(fields.keySet());
            rows.add(fields);
        }
        final List<String> header = new ArrayList<>(List.of("KEY"));
        columns.forEach(c -> header.add(c.toUpperCase(Locale.ROOT)));
        final List<List<String>> cells = new ArrayList<>();
        for (int r = 0; r < rows.size(); r++) {
            final List<String> row = new ArrayList<>(List.of(cut(String.valueOf(entries.get(r).getKey()))));
            for (final String column : columns) {
                row.add(rows.get(r).containsKey(column) ? cut(cell(column, rows.get(r).get(column))) : "");
            }
            cells.add(row);
        }
        final int[] widths = new int[header.size()];
        for (int c = 0; c < header.size(); c++) {
            widths[c] = header.get(c).length();
            for (final List<String> row : cells) {
                widths[c] = Math.max(widths[c], row.get(c).length());
            }
        }
        final List<String> lines = new ArrayList<>();
        lines.add(pad(header, widths));
        cells.forEach(row -> lines.add(pad(row, widths)));
        return lines;
    }

    /** {@code {"key": …, "value": {…}}}. */
    static String json(final Object key, final Object value) {
        return "{\"key\":" + JsonText.of(key) + ",\"value\":" + JsonText.of(ValueFields.of(value)) + "}";
    }

    /** {@code {"change": "UPDATE", "key": …, "value": {…}}}. */
    static String json(final String change, final Object key, final Object value) {
        return "{\"change\":" + JsonText.of(change) + ",\"key\":" + JsonText.of(key) + ",\"value\":" + JsonText.of(ValueFields.of(value)) + "}";
    }

    private static String cut(final String text) {
        return text.length() <= CELL_WIDTH ? text : text.substring(0, CELL_WIDTH - 1) + "…";
    }

    private static String pad(final List<String> row, final int[] widths) {
        final StringBuilder line = new StringBuilder();
        for (int c = 0; c < row.size(); c++) {
            line.append(row.get(c));
            if (c < row.size() - 1) {
                line.append(" ".repeat(widths[c] - row.get(c).length() + 2));
            }
        }
        return line.toString();
    }
}
