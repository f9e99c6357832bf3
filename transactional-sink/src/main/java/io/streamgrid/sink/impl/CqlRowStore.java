package io.streamgrid.sink.impl;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.ColumnDefinitions;
import com.datastax.oss.driver.api.core.cql.DefaultBatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.driver.api.core.type.codec.registry.CodecRegistry;
import com.hazelcast.core.HazelcastInstance;
import io.streamgrid.sink.CassandraTarget;
import io.streamgrid.sink.TableSpec;

import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentMap;

/**
 * A table of a real Cassandra cluster: prepared INSERT and DELETE, rows of a partition in one
 * UNLOGGED batch. An epoch's timestamp goes with the request (the statement's or batch's query
 * timestamp, which every write in a batch takes), not as a bound {@code USING TIMESTAMP ?}; values
 * are encoded with the columns' codecs found once at prepare, not looked up per value — binding
 * was most of the sink thread's time in the cassandra-sink benchmark's profile, and that CPU is
 * taken from Cassandra on a small machine.
 */
final class CqlRowStore implements RowStore {
    private final TableSpec spec;
    private final CqlSession session;
    private final PreparedStatement insert;
    private final PreparedStatement delete;
    private final TypeCodec<Object>[] insertCodecs;
    private final TypeCodec<Object>[] deleteCodecs;
    private final boolean explicitTimestamps;
    private final ConcurrentMap<String, Long> ledger;

    CqlRowStore(final CassandraTarget target, final TableSpec spec, final boolean explicitTimestamps,
                final HazelcastInstance hazelcast) {
        this.spec = spec;
        this.explicitTimestamps = explicitTimestamps;
        this.ledger = TimestampLedger.map(hazelcast);
        this.session = target.connectForWrites();
        try {
            this.insert = session.prepare(spec.insertCql());
            this.delete = session.prepare(spec.deleteCql());
        } catch (final RuntimeException e) {
            session.close(); // the caller may try again; no session is left behind
            throw e;
        }
        this.insertCodecs = codecs(insert);
        this.deleteCodecs = codecs(delete);
    }

    @SuppressWarnings("unchecked")
    private TypeCodec<Object>[] codecs(final PreparedStatement statement) {
        final CodecRegistry registry = session.getContext().getCodecRegistry();
        final ColumnDefinitions variables = statement.getVariableDefinitions();
        final TypeCodec<Object>[] codecs = new TypeCodec[variables.size()];
        for (int i = 0; i < codecs.length; i++) {
            codecs[i] = registry.codecFor(variables.get(i).getType());
        }
        return codecs;
    }

    @Override
    public CompletionStage<?> write(final List<RowWrite> partition, final long timestampMicros) {
        if (partition.size() == 1) {
            final BoundStatementBuilder single = bind(partition.get(0));
            if (explicitTimestamps) {
                single.setQueryTimestamp(timestampMicros);
            }
            return session.executeAsync(single.build());
        }
        final BatchStatementBuilder batch = BatchStatement.builder(DefaultBatchType.UNLOGGED);
        if (explicitTimestamps) {
            batch.setQueryTimestamp(timestampMicros);
        }
        for (final RowWrite row : partition) {
            batch.addStatement(bind(row).build());
        }
        return session.executeAsync(batch.build());
    }

    /** The row's values (a delete's: its primary key) with their columns' codecs. */
    private BoundStatementBuilder bind(final RowWrite row) {
        final Object[] values = row.values();
        final TypeCodec<Object>[] codecs = row.delete() ? deleteCodecs : insertCodecs;
        final BoundStatementBuilder builder = (row.delete() ? delete : insert).boundStatementBuilder();
        for (int i = 0; i < values.length; i++) {
            builder.set(i, values[i], codecs[i]);
        }
        return builder;
    }

    @Override
    public void reserve(final long timestampMicros) {
        TimestampLedger.reserve(ledger, spec.qualifiedName(), timestampMicros);
    }

    @Override
    public String describe() {
        return insert.getQuery() + " / " + delete.getQuery() + (explicitTimestamps ? " (each epoch's writes with its timestamp)" : "");
    }

    @Override
    public void close() {
        session.close();
    }
}
