package io.streamgrid.sink;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * A target table: its columns in row order and its primary key. Immutable and validated; rows given
 * to the sink are {@code Object[]} in {@link #columns()} order, of each column's {@link CqlType#javaType()}.
 *
 * @param partitionKey  column names of the partition key, at least one
 * @param clusteringKey column names of the clustering key, possibly none
 */
public record TableSpec(String keyspace, String table, List<Column> columns, List<String> partitionKey,
                        List<String> clusteringKey) implements Serializable {
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,47}");

    /** A column: lower-case name and type. */
    public record Column(String name, CqlType type) implements Serializable {
        public Column {
            checkName(name, "column");
            Objects.requireNonNull(type, "type");
        }
    }

    public TableSpec {
        checkName(keyspace, "keyspace");
        checkName(table, "table");
        columns = List.copyOf(columns);
        partitionKey = List.copyOf(partitionKey);
        clusteringKey = List.copyOf(clusteringKey);
        if (partitionKey.isEmpty()) {
            throw new IllegalArgumentException("table " + table + " needs a partition key");
        }
        final List<String> names = columns.stream().map(Column::name).toList();
        for (final String key : concat(partitionKey, clusteringKey)) {
            if (!names.contains(key)) {
                throw new IllegalArgumentException("key column '" + key + "' of table " + table + " is not among its columns " + names);
            }
        }
    }

    public String qualifiedName() {
        return keyspace + "." + table;
    }

    /** Primary-key columns: partition key then clustering key. */
    public List<String> primaryKey() {
        return concat(partitionKey, clusteringKey);
    }

    /** Positions of the primary-key columns in a row. */
    public int[] primaryKeyPositions() {
        return primaryKey().stream().mapToInt(this::position).toArray();
    }

    /** Positions of the partition-key columns in a row. */
    public int[] partitionKeyPositions() {
        return partitionKey.stream().mapToInt(this::position).toArray();
    }

    public int position(final String column) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(column)) {
                return i;
            }
        }
        throw new IllegalArgumentException("no column '" + column + "' in table " + table);
    }

    public String createTableCql() {
        return "CREATE TABLE IF NOT EXISTS " + qualifiedName() + " ("
                + columns.stream().map(c -> c.name() + " " + c.type().cql()).collect(Collectors.joining(", "))
                + ", PRIMARY KEY ((" + String.join(", ", partitionKey) + ")"
                + (clusteringKey.isEmpty() ? "" : ", " + String.join(", ", clusteringKey)) + "))";
    }

    /**
     * INSERT of a whole row, values in column order. No {@code USING TIMESTAMP}: the sink sends an
     * epoch's write time as the request's timestamp.
     */
    public String insertCql() {
        return "INSERT INTO " + qualifiedName() + " (" + columns.stream().map(Column::name).collect(Collectors.joining(", "))
                + ") VALUES (" + columns.stream().map(c -> "?").collect(Collectors.joining(", ")) + ")";
    }

    /** DELETE of one row by its whole primary key, values in {@link #primaryKey()} order. */
    public String deleteCql() {
        return "DELETE FROM " + qualifiedName() + " WHERE "
                + primaryKey().stream().map(c -> c + " = ?").collect(Collectors.joining(" AND "));
    }

    /**
     * Checks that {@code key} is a whole primary key (values in {@link #primaryKey()} order, none
     * null). Returns null when it is, else the reason.
     */
    public String checkKey(final Object[] key) {
        final List<String> names = primaryKey();
        if (key == null || key.length != names.size()) {
            return "key has " + (key == null ? "no" : key.length) + " values, the primary key of " + qualifiedName()
                    + " is " + names;
        }
        for (int i = 0; i < key.length; i++) {
            final Column column = columns.get(position(names.get(i)));
            if (!column.type().javaType().isInstance(key[i])) {
                return "key column " + column.name() + " of " + qualifiedName() + " needs a " + column.type().javaType().getSimpleName()
                        + ", got " + (key[i] == null ? "null" : key[i].getClass().getSimpleName() + " " + key[i]);
            }
        }
        return null;
    }

    /**
     * Checks that {@code row} fits: length and value types. Returns null when it does, else the reason.
     */
    public String check(final Object[] row) {
        if (row == null || row.length != columns.size()) {
            return "row has " + (row == null ? "no" : row.length) + " values, table " + qualifiedName() + " has "
                    + columns.size() + " columns";
        }
        for (int i = 0; i < row.length; i++) {
            final Column column = columns.get(i);
            if (row[i] == null ? primaryKey().contains(column.name()) : !column.type().javaType().isInstance(row[i])) {
                return "column " + column.name() + " of " + qualifiedName() + " needs a " + column.type().javaType().getSimpleName()
                        + ", got " + (row[i] == null ? "null" : row[i].getClass().getSimpleName() + " " + row[i]);
            }
        }
        return null;
    }

    private static List<String> concat(final List<String> a, final List<String> b) {
        final List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return all;
    }

    private static void checkName(final String name, final String what) {
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException(what + " name '" + name + "' must be lower-case letters, digits and _, starting with a letter");
        }
    }
}
