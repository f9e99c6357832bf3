package io.streamgrid.sink.impl;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.streamgrid.sink.CassandraTarget;
import io.streamgrid.sink.TableSpec;

import java.util.List;
import java.util.concurrent.CompletionStage;

/** A table of a real Cassandra cluster: prepared INSERT and DELETE, rows of a partition in one UNLOGGED batch. */
final class CqlRowStore implements RowStore {
    private final TableSpec spec;
    private final CqlSession session;
    private final PreparedStatement insert;
    private final PreparedStatement delete;
    private final boolean explicitTimestamps;
    private final IMap<String, Long> ledger;

    CqlRowStore(final CassandraTarget target, final TableSpec spec, final boolean explicitTimestamps,
                final HazelcastInstance hazelcast) {
        this.spec = spec;
        this.explicitTimestamps = explicitTimestamps;
        this.ledger = TimestampLedger.map(hazelcast);
        this.session = target.connectForWrites();
        try {
            this.insert = session.prepare(spec.insertCql(explicitTimestamps));
            this.delete = session.prepare(spec.deleteCql(explicitTimestamps));
        } catch (final RuntimeException e) {
            session.close(); // the caller may try again; no session is left behind
            throw e;
        }
    }

    @Override
    public CompletionStage<?> write(final List<RowWrite> partition, final long timestampMicros) {
        if (partition.size() == 1) {
            return session.executeAsync(bind(partition.get(0), timestampMicros));
        }
        final BatchStatementBuilder batch = BatchStatement.builder(DefaultBatchType.UNLOGGED);
        for (final RowWrite row : partition) {
            batch.addStatement(bind(row, timestampMicros));
        }
        return session.executeAsync(batch.build());
    }

    private BoundStatement bind(final RowWrite row, final long timestampMicros) {
        final Object[] values = row.values();
        if (!explicitTimestamps) {
            return (row.delete() ? delete : insert).bind(values);
        }
        final Object[] withTimestamp = new Object[values.length + 1];
        if (row.delete()) {
            // DELETE ... USING TIMESTAMP ? WHERE ...: the timestamp is bound first.
            withTimestamp[0] = timestampMicros;
            System.arraycopy(values, 0, withTimestamp, 1, values.length);
            return delete.bind(withTimestamp);
        }
        System.arraycopy(values, 0, withTimestamp, 0, values.length);
        withTimestamp[values.length] = timestampMicros;
        return insert.bind(withTimestamp);
    }

    @Override
    public void reserve(final long timestampMicros) {
        TimestampLedger.reserve(ledger, spec.qualifiedName(), timestampMicros);
    }

    @Override
    public String describe() {
        return insert.getQuery() + " / " + delete.getQuery();
    }

    @Override
    public void close() {
        session.close();
    }
}
