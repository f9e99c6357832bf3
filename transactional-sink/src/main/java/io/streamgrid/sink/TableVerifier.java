package io.streamgrid.sink;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Compares a table with the rows it should hold: an independent oracle's output, keyed by primary
 * key (values in {@link TableSpec#primaryKey()} order), each row's values in column order. The
 * check {@code streamgrid demo} makes of its Cassandra output (it exits 1 when a row is missing,
 * extra or wrong), and the exactly-once tests' comparison with their oracles.
 */
public final class TableVerifier {
    private TableVerifier() {
    }

    /** What was compared. */
    public record Report(int expected, int found, int missing, int extra, int wrong, List<String> examples) {
        public boolean isExact() {
            return missing == 0 && extra == 0 && wrong == 0 && found == expected;
        }

        @Override
        public String toString() {
            return expected + " expected, " + found + " found, " + missing + " missing, " + extra + " extra, " + wrong + " wrong"
                    + (examples.isEmpty() ? "" : "; e.g. " + examples);
        }
    }

    /** Reads the whole table (fine for test-sized tables) and compares whole rows. */
    public static Report verify(final CqlSession session, final TableSpec spec, final Map<List<Object>, List<Object>> expected) {
        return compare(read(session, spec), expected);
    }

    /**
     * Compares only {@code columns} of each row (for columns the oracle does not model); expected
     * values are in that order.
     */
    public static Report verify(final CqlSession session, final TableSpec spec, final List<String> columns,
                                final Map<List<Object>, List<Object>> expected) {
        final int[] positions = columns.stream().mapToInt(spec::position).toArray();
        final Map<List<Object>, List<Object>> projected = new HashMap<>();
        read(session, spec).forEach((key, row) -> {
            final List<Object> values = new ArrayList<>();
            for (final int position : positions) {
                values.add(row.get(position));
            }
            projected.put(key, values);
        });
        return compare(projected, expected);
    }

    private static Report compare(final Map<List<Object>, List<Object>> found, final Map<List<Object>, List<Object>> expected) {
        int missing = 0;
        int wrong = 0;
        final List<String> examples = new ArrayList<>();
        for (final Map.Entry<List<Object>, List<Object>> row : expected.entrySet()) {
            final List<Object> actual = found.get(row.getKey());
            if (actual == null) {
                missing++;
                example(examples, "missing " + row.getKey());
            } else if (!Objects.equals(actual, row.getValue())) {
                wrong++;
                example(examples, "wrong " + row.getKey() + ": expected " + row.getValue() + ", found " + actual);
            }
        }
        int extra = 0;
        for (final List<Object> key : found.keySet()) {
            if (!expected.containsKey(key)) {
                extra++;
                example(examples, "extra " + key);
            }
        }
        return new Report(expected.size(), found.size(), missing, extra, wrong, examples);
    }

    /** The table's rows: primary key → all values in column order. */
    public static Map<List<Object>, List<Object>> read(final CqlSession session, final TableSpec spec) {
        final String columns = spec.columns().stream().map(TableSpec.Column::name).collect(Collectors.joining(", "));
        final int[] keyPositions = spec.primaryKeyPositions();
        final Map<List<Object>, List<Object>> rows = new HashMap<>();
        for (final Row row : session.execute("SELECT " + columns + " FROM " + spec.qualifiedName())) {
            final List<Object> values = new ArrayList<>();
            for (int i = 0; i < spec.columns().size(); i++) {
                values.add(row.getObject(i));
            }
            final List<Object> key = new ArrayList<>();
            for (final int position : keyPositions) {
                key.add(values.get(position));
            }
            rows.put(key, values);
        }
        return rows;
    }

    private static void example(final List<String> examples, final String text) {
        if (examples.size() < 5) {
            examples.add(text);
        }
    }
}
