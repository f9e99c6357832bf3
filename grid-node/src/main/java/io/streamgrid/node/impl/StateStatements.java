package io.streamgrid.node.impl;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.internal.serialization.impl.compact.schema.MemberSchemaService;
import com.hazelcast.spi.impl.NodeEngine;

/**
 * The state table's schema and statements, as {@link StateTable#open} makes them: the keyspace and
 * the four tables ({@code <table>}, {@code _maps}, {@code _schemas}, {@code _parts}) created when
 * missing, every statement prepared once, with the session, the member's services and the buckets'
 * clock.
 */
record StateStatements(CqlSession session, NodeEngine nodeEngine, PreparedStatement insert, PreparedStatement delete,
                       PreparedStatement selectOne, PreparedStatement selectIn, PreparedStatement selectRange,
                       PreparedStatement selectKeys, PreparedStatement selectMaps, PreparedStatement selectMap, PreparedStatement insertMap,
                       PreparedStatement insertSchema, PreparedStatement selectSchemas, PreparedStatement deleteBucket, PreparedStatement deleteMap,
                       Parts parts, BucketClock clock) {
    SerializationService serialization() {
        return nodeEngine.getSerializationService();
    }

    MemberSchemaService schemas() {
        return nodeEngine.getSchemaService();
    }

    /** The statements of {@code <table>_parts}. */
    record Parts(PreparedStatement insert, PreparedStatement select, PreparedStatement deleteOlder,
               PreparedStatement deleteKey, PreparedStatement deleteBucket) {
    }

    /** Creates the keyspace and tables when missing and prepares the statements of {@code table} (keyspace.table). */
    static StateStatements prepare(final CqlSession session, final String keyspace, final String replication, final String table,
                                   final NodeEngine nodeEngine) {
        session.execute("CREATE KEYSPACE IF NOT EXISTS " + keyspace
                + " WITH replication = " + replication);
        session.execute("CREATE TABLE IF NOT EXISTS " + table
                + " (map text, bucket int, key blob, value blob, PRIMARY KEY ((map, bucket), key))");
        session.execute("CREATE TABLE IF NOT EXISTS " + table + "_maps (map text PRIMARY KEY)");
        session.execute("CREATE TABLE IF NOT EXISTS " + table + "_schemas (id bigint PRIMARY KEY, definition blob)");
        session.execute("CREATE TABLE IF NOT EXISTS " + table + "_parts (map text, bucket int, key blob, generation bigint,"
                + " part int, value blob, PRIMARY KEY ((map, bucket), key, generation, part))");
        return new StateStatements(session, nodeEngine,
                session.prepare("INSERT INTO " + table + " (map, bucket, key, value) VALUES (?, ?, ?, ?) USING TTL ?"),
                session.prepare("DELETE FROM " + table + " WHERE map = ? AND bucket = ? AND key = ?"),
                session.prepare("SELECT value FROM " + table + " WHERE map = ? AND bucket = ? AND key = ?"),
                session.prepare("SELECT key, value FROM " + table + " WHERE map = ? AND bucket = ? AND key IN ?"),
                session.prepare("SELECT key, value FROM " + table + " WHERE map = ? AND bucket = ? AND key >= ? AND key <= ?"),
                session.prepare("SELECT key FROM " + table + " WHERE map = ? AND bucket = ?"),
                session.prepare("SELECT map FROM " + table + "_maps"),
                session.prepare("SELECT map FROM " + table + "_maps WHERE map = ?"),
                session.prepare("INSERT INTO " + table + "_maps (map) VALUES (?)"),
                session.prepare("INSERT INTO " + table + "_schemas (id, definition) VALUES (?, ?)"),
                session.prepare("SELECT id, definition FROM " + table + "_schemas"),
                session.prepare("DELETE FROM " + table + " WHERE map = ? AND bucket = ?"),
                session.prepare("DELETE FROM " + table + "_maps WHERE map = ?"),
                new Parts(
                        session.prepare("INSERT INTO " + table + "_parts (map, bucket, key, generation, part, value)"
                                + " VALUES (?, ?, ?, ?, ?, ?) USING TTL ?"),
                        session.prepare("SELECT part, value FROM " + table + "_parts"
                                + " WHERE map = ? AND bucket = ? AND key = ? AND generation = ?"),
                        session.prepare("DELETE FROM " + table + "_parts WHERE map = ? AND bucket = ? AND key = ? AND generation < ?"),
                        session.prepare("DELETE FROM " + table + "_parts WHERE map = ? AND bucket = ? AND key = ?"),
                        session.prepare("DELETE FROM " + table + "_parts WHERE map = ? AND bucket = ?")),
                new BucketClock(session, table, nodeEngine.getPartitionService()));
    }
}
