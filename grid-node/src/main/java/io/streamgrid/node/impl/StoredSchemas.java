package io.streamgrid.node.impl;

import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.hazelcast.internal.serialization.impl.HeapData;
import com.hazelcast.internal.serialization.impl.compact.Schema;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The Compact schemas of the state table's values, in {@code <table>_schemas}: a Compact value can
 * only be read again with its schema, so every schema the member knows is written before a value
 * that may use it, and every stored one is put into the member's registry when the table opens.
 */
final class StoredSchemas {
    private final Set<Long> written = ConcurrentHashMap.newKeySet();

    /** Puts every stored schema into the member's registry; returns how many there were. */
    int restore(final StateStatements o) {
        int restored = 0;
        for (final Row row : o.session().execute(o.selectSchemas().bind())) {
            final Schema schema = o.serialization().toObject(new HeapData(StateTable.bytes(row.getByteBuffer("definition"))));
            o.schemas().putLocal(schema);
            written.add(row.getLong("id"));
            restored++;
        }
        return restored;
    }

    /** Writes the member's Compact schemas not written yet: a value is never stored before its schema. */
    void writeNew(final StateStatements o) {
        final List<Schema> fresh = new ArrayList<>();
        for (final Schema schema : o.schemas().getAllSchemas()) {
            if (!written.contains(schema.getSchemaId())) {
                fresh.add(schema);
            }
        }
        if (fresh.isEmpty()) {
            return;
        }
        final List<BoundStatement> inserts = new ArrayList<>();
        for (final Schema schema : fresh) {
            inserts.add(o.insertSchema().bind(schema.getSchemaId(), ByteBuffer.wrap(o.serialization().toData(schema).toByteArray())));
        }
        AsyncStatements.runAll(o.session(), inserts);
        fresh.forEach(schema -> written.add(schema.getSchemaId()));
    }
}
