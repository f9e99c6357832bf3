package io.streamgrid.sink;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metadata.schema.ColumnMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;

import java.util.List;

/**
 * Creates keyspaces and tables explicitly and idempotently ({@code IF NOT EXISTS}), then checks that
 * what exists fits: every column present with its type, the same primary key.
 */
public final class CassandraSchema {
    private CassandraSchema() {
    }

    /**
     * Makes sure {@code spec}'s keyspace (with the target's replication) and table exist and fit.
     *
     * @throws SchemaMismatchException naming the table and the column when an existing table differs
     */
    public static void ensure(final CqlSession session, final CassandraTarget target, final TableSpec spec) {
        session.execute("CREATE KEYSPACE IF NOT EXISTS " + spec.keyspace() + " WITH replication = " + target.replication());
        session.execute(spec.createTableCql());
        session.checkSchemaAgreement();
        final TableMetadata table = session.refreshSchema().getKeyspace(spec.keyspace())
                .flatMap(k -> k.getTable(spec.table()))
                .orElseThrow(() -> new SchemaMismatchException("table " + spec.qualifiedName() + " was not created"));
        verify(table, spec);
    }

    static void verify(final TableMetadata table, final TableSpec spec) {
        for (final TableSpec.Column column : spec.columns()) {
            final ColumnMetadata existing = table.getColumn(CqlIdentifier.fromInternal(column.name())).orElseThrow(() ->
                    new SchemaMismatchException("table " + spec.qualifiedName() + " has no column '" + column.name()
                            + "' (" + column.type().cql() + "): alter the table or write to another one"));
            final String type = existing.getType().asCql(false, true);
            if (!type.equalsIgnoreCase(column.type().cql())) {
                throw new SchemaMismatchException("column '" + column.name() + "' of table " + spec.qualifiedName()
                        + " is " + type + ", the sink writes " + column.type().cql());
            }
        }
        check(spec, "partition key", names(table.getPartitionKey()), spec.partitionKey());
        check(spec, "clustering key", names(table.getClusteringColumns().keySet().stream().toList()), spec.clusteringKey());
    }

    private static List<String> names(final List<ColumnMetadata> columns) {
        return columns.stream().map(c -> c.getName().asInternal()).toList();
    }

    private static void check(final TableSpec spec, final String what, final List<String> existing, final List<String> wanted) {
        if (!existing.equals(wanted)) {
            throw new SchemaMismatchException("table " + spec.qualifiedName() + " has " + what + " " + existing
                    + ", the sink needs " + wanted);
        }
    }
}
