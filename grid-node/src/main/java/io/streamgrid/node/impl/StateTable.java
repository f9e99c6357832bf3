package io.streamgrid.node.impl;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.impl.HeapData;
import com.hazelcast.spi.impl.NodeEngine;
import io.streamgrid.node.PersistenceSettings;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.logging.Logger;

/**
 * A member's side of the Cassandra table that holds the persisted state maps, shared by the
 * member's {@link CassandraMapStore}s. Rows are {@code (map, bucket, key) -> value}, where bucket is
 * the key's Hazelcast partition, so that a partition's keys load with one query per batch; keys and
 * values are kept in Hazelcast's serialized form (Compact for records), so any value type works
 * without CQL of its own. Compact values need their schemas to be read again: every schema the
 * member knows is written to {@code <table>_schemas} before a value that may use it, and put back
 * into the member's schema registry when it opens. {@code <table>_maps} lists the maps that hold
 * rows, for the eager load at start.
 *
 * <p>A value whose serialized form is larger than {@link ValueParts#PART_BYTES} goes to {@code <table>_parts}
 * in parts of that size, under a generation of its own, and its row holds a 24-byte marker naming
 * the generation, the part count and the length: Cassandra refuses a request over 16 MiB (and a
 * mutation over half a commit-log segment, 16 MiB too), so such a value could never be written
 * whole — write-behind retried it for ever and a durable job's snapshot waited on it. The parts are
 * written first, then the marker, then older generations of the key are deleted: a crash between
 * leaves the previous value readable, never a mix. The marker and that deletion are written at the
 * generation's own timestamp, so that of two members writing one key at once (a migration during a
 * graceful shutdown) the higher generation wins both the row and its parts' survival. The parts of a key whose value later became
 * small or was deleted are removed when this member has written or read a large value of that map
 * since it started; otherwise they stay unread until the map is destroyed.
 *
 * <p>Thread-safe. Opened once, by the first map store or by the member's start, whichever comes
 * first; every method blocks until Cassandra answers and throws when it does not (Hazelcast then
 * retries a write-behind batch later, or fails the caller's operation in write-through mode).
 */
final class StateTable implements AutoCloseable {
    /** Key of the member's instance in Hazelcast's user context. */
    static final String USER_CONTEXT_KEY = "streamgrid.state-table";
    private static final Logger LOG = Logger.getLogger(StateTable.class.getName());
    /** Keys per IN query of a load (every key of one query is in one Cassandra partition); more are read by a range scan. */
    private static final int KEYS_PER_QUERY = 100;
    /** Rows per page of a range read (a load's, a key listing's: {@link StoredKeys}). */
    static final int PAGE_SIZE = 5_000;
    private static final long PROGRESS_EVERY = 100_000;

    private final PersistenceSettings settings;
    /** keyspace.table */
    private final String table;
    /** Each map's time to live, from its Hazelcast config (0: none), looked up once per map. */
    private final Map<String, Integer> ttlSecondsByMap = new ConcurrentHashMap<>();
    private final StoredSchemas schemas = new StoredSchemas();
    private final Set<String> mapsRegistered = ConcurrentHashMap.newKeySet();
    private final Map<String, AtomicLong> loadedByMap = new ConcurrentHashMap<>();
    private final ValueParts parts;
    private volatile StateStatements opened;

    /** A map whose entries expire (its Hazelcast config has a time to live) writes its rows with the same time to live. */
    StateTable(final PersistenceSettings settings) {
        this.settings = settings;
        this.table = settings.cassandra().keyspace() + "." + settings.table();
        this.parts = new ValueParts(table);
    }

    /**
     * Connects (waiting while Cassandra is unreachable), creates the keyspace and tables when
     * missing and puts every stored Compact schema into the member's registry. Idempotent.
     */
    synchronized void open(final HazelcastInstance hazelcast) {
        if (opened != null) {
            return;
        }
        final NodeEngine nodeEngine = HazelcastInternals.node(hazelcast).getNodeEngine();
        LOG.info(() -> "state persistence: connecting to Cassandra " + settings.cassandra().contactPoints() + ", table " + table);
        final CqlSession session = settings.cassandra().connectForWrites();
        try {
            final StateStatements ready = StateStatements.prepare(session, settings.cassandra().keyspace(),
                    settings.cassandra().replication(), table, nodeEngine);
            final int restored = schemas.restore(ready);
            LOG.info(() -> "state persistence: " + restored + " Compact schemas restored from " + table + "_schemas");
            opened = ready;
        } catch (final RuntimeException e) {
            session.close();
            throw e;
        }
    }

    /** The names of the maps that have rows in the table (registered when they were first written). */
    List<String> persistedMaps() {
        final List<String> maps = new ArrayList<>();
        final StateStatements o = opened();
        for (final Row row : o.session().execute(o.selectMaps().bind())) {
            maps.add(row.getString("map"));
        }
        return maps;
    }

    /** Writes {@code entries} (keys and values as Hazelcast hands them to a map store) of {@code map}. */
    void write(final String map, final Map<?, ?> entries) {
        final StateStatements o = opened();
        register(o, map);
        // Hazelcast's expiry never deletes from the store: without a row TTL an expired entry would
        // stay in Cassandra for ever and come back at the next start.
        final int ttl = ttlSecondsByMap.computeIfAbsent(map, name -> o.nodeEngine().getConfig().findMapConfig(name).getTimeToLiveSeconds());
        final List<BoundStatement> inserts = new ArrayList<>(entries.size());
        final List<BoundStatement> partDeletes = new ArrayList<>();
        final List<Runnable> large = new ArrayList<>();
        final boolean mayHaveParts = parts.mayHave(map);
        for (final Map.Entry<?, ?> entry : entries.entrySet()) {
            final Data key = toData(o, entry.getKey());
            final int bucket = bucket(o, key);
            final byte[] keyBytes = key.toByteArray();
            final byte[] value = toData(o, entry.getValue()).toByteArray();
            if (value.length > ValueParts.PART_BYTES) {
                large.add(() -> parts.write(o, map, bucket, keyBytes, value, ttl));
                continue;
            }
            final long timestamp = o.clock().next(bucket);
            inserts.add(o.insert().bind(map, bucket, ByteBuffer.wrap(keyBytes), ByteBuffer.wrap(value), ttl).setQueryTimestamp(timestamp));
            if (mayHaveParts) {
                partDeletes.add(o.parts().deleteKey().bind(map, bucket, ByteBuffer.wrap(keyBytes)).setQueryTimestamp(timestamp));
            }
        }
        // After serialising: that is when a value's schema reaches the member's registry.
        schemas.writeNew(o);
        AsyncStatements.runAll(o.session(), inserts);
        AsyncStatements.runAll(o.session(), partDeletes);
        large.forEach(Runnable::run);
    }

    void delete(final String map, final Collection<?> keys) {
        final StateStatements o = opened();
        final List<BoundStatement> deletes = new ArrayList<>(keys.size());
        final boolean mayHaveParts = parts.mayHave(map);
        for (final Object key : keys) {
            final Data data = toData(o, key);
            final int bucket = bucket(o, data);
            final byte[] keyBytes = data.toByteArray();
            final long timestamp = o.clock().next(bucket);
            deletes.add(o.delete().bind(map, bucket, ByteBuffer.wrap(keyBytes)).setQueryTimestamp(timestamp));
            if (mayHaveParts) {
                deletes.add(o.parts().deleteKey().bind(map, bucket, ByteBuffer.wrap(keyBytes)).setQueryTimestamp(timestamp));
            }
        }
        AsyncStatements.runAll(o.session(), deletes);
    }

    /**
     * Deletes the rows of {@code map} in the buckets this member owns, and the map's name from
     * {@code <table>_maps}: a destroyed map does not come back at the next start. Every member of the
     * cluster calls it, so every bucket is deleted by its owner. A bucket whose partition has no
     * owner at that moment keeps its rows: not loaded while the map is not listed, back if a map of
     * the same name is written again.
     */
    void deleteMap(final String map) {
        final StateStatements o = opened();
        final int buckets = o.nodeEngine().getPartitionService().getPartitionCount();
        final List<BoundStatement> deletes = new ArrayList<>(2 * buckets);
        for (int bucket = 0; bucket < buckets; bucket++) {
            // Each member deletes the buckets it owns, ordered by their clocks: a delete with another
            // member's clock could be ahead of the owner's and hide what the map, created again, holds.
            if (!o.nodeEngine().getPartitionService().getPartition(bucket).isLocal()) {
                continue;
            }
            final long timestamp = o.clock().next(bucket);
            deletes.add(o.deleteBucket().bind(map, bucket).setQueryTimestamp(timestamp));
            deletes.add(o.parts().deleteBucket().bind(map, bucket).setQueryTimestamp(timestamp));
        }
        AsyncStatements.runAll(o.session(), deletes);
        mapsRegistered.remove(map);
        parts.forget(map);
        o.session().execute(o.deleteMap().bind(map).setQueryTimestamp(o.clock().nextShared()));
        loadedByMap.remove(map);
    }

    /** The stored value of {@code key} in serialized form, or null. */
    Data read(final String map, final Object key) {
        final StateStatements o = opened();
        final Data data = toData(o, key);
        final int bucket = bucket(o, data);
        final ByteBuffer keyBytes = ByteBuffer.wrap(data.toByteArray());
        final Row row = o.session().execute(o.selectOne().bind(map, bucket, keyBytes)).one();
        if (row == null) {
            return null;
        }
        final ByteBuffer value = row.getByteBuffer("value");
        return ValueParts.isMarker(value) ? parts.read(o, map, bucket, keyBytes, value) : new HeapData(bytes(value));
    }

    /** The stored values of those of {@code keys} that have one, keyed by the keys as given. */
    Map<Object, Object> readAll(final String map, final Collection<?> keys) {
        final StateStatements o = opened();
        final Map<Integer, Map<ByteBuffer, Object>> keysByBucket = new HashMap<>();
        for (final Object key : keys) {
            final Data data = toData(o, key);
            keysByBucket.computeIfAbsent(bucket(o, data), b -> new HashMap<>()).put(ByteBuffer.wrap(data.toByteArray()), key);
        }
        final List<BoundStatement> queries = new ArrayList<>();
        keysByBucket.forEach((bucket, byBytes) -> {
            if (byBytes.size() > KEYS_PER_QUERY) {
                // Many keys of one partition (the initial load asks for a partition's keys, up to 1,000 at
                // a time): one range scan from the first to the last of them reads them in key order,
                // far cheaper for Cassandra than as many lookups; rows not asked for are skipped.
                ByteBuffer first = null;
                ByteBuffer last = null;
                for (final ByteBuffer key : byBytes.keySet()) {
                    first = first == null || compareUnsigned(key, first) < 0 ? key : first;
                    last = last == null || compareUnsigned(key, last) > 0 ? key : last;
                }
                queries.add(o.selectRange().bind(map, bucket, first, last).setPageSize(PAGE_SIZE));
            } else {
                queries.add(o.selectIn().bind(map, bucket, new ArrayList<>(byBytes.keySet())));
            }
        });
        final Map<Object, Object> found = new ConcurrentHashMap<>();
        // Values in parts are read after the rows, on this thread: never a blocking query on the driver's.
        final Map<Object, Runnable> inParts = new ConcurrentHashMap<>();
        AsyncStatements.runAll(o.session(), queries, (statement, row) -> {
            final int bucket = statement.getInt(1);
            final ByteBuffer rowKey = row.getByteBuffer("key");
            final Object key = keysByBucket.get(bucket).get(rowKey);
            if (key != null) {
                final ByteBuffer value = row.getByteBuffer("value");
                if (ValueParts.isMarker(value)) {
                    final ByteBuffer keyCopy = ByteBuffer.wrap(bytes(rowKey));
                    final ByteBuffer markerCopy = ByteBuffer.wrap(bytes(value));
                    inParts.put(key, () -> found.put(key, parts.read(o, map, bucket, keyCopy, markerCopy)));
                } else {
                    found.put(key, new HeapData(bytes(value)));
                }
            }
        });
        inParts.values().forEach(Runnable::run);
        final long total = loadedByMap.computeIfAbsent(map, m -> new AtomicLong()).addAndGet(found.size());
        if (total / PROGRESS_EVERY != (total - found.size()) / PROGRESS_EVERY) {
            LOG.info(() -> "state persistence: " + map + ": " + total + " entries loaded on this member so far");
        }
        return found;
    }

    /**
     * Every stored key of {@code map}, in serialized form, read as it is iterated ({@link StoredKeys}:
     * a failed page is asked for again while {@code keepTrying} says so). Hazelcast iterates it once,
     * on one member, and hands the keys to the partitions' owners in batches. A map never written
     * (not in {@code <table>_maps}) has no keys and costs one lookup, not a query per bucket: Jet
     * loads every new snapshot map.
     */
    Iterable<Object> keys(final String map, final BooleanSupplier keepTrying) {
        final StateStatements o = opened();
        if (!mapsRegistered.contains(map) && o.session().execute(o.selectMap().bind(map)).one() == null) {
            return List.of();
        }
        final int buckets = o.nodeEngine().getPartitionService().getPartitionCount();
        return () -> new StoredKeys(o.session(), o.selectKeys(), map, buckets, keepTrying);
    }

    @Override
    public synchronized void close() {
        if (opened != null) {
            opened.session().close();
            opened = null;
        }
    }

    private StateStatements opened() {
        final StateStatements o = opened;
        if (o == null) {
            throw new IllegalStateException("state persistence is not open (the member is stopping or has not started)");
        }
        return o;
    }

    private void register(final StateStatements o, final String map) {
        if (!mapsRegistered.contains(map)) {
            o.session().execute(o.insertMap().bind(map).setQueryTimestamp(o.clock().nextShared()));
            mapsRegistered.add(map);
        }
    }

    private static Data toData(final StateStatements o, final Object value) {
        return value instanceof Data data ? data : o.serialization().toData(value);
    }

    /** The key's partition: the bucket of its row. */
    private static int bucket(final StateStatements o, final Data key) {
        return o.nodeEngine().getPartitionService().getPartitionId(key);
    }

    /** Cassandra's order of blobs (bytes compared unsigned, a prefix first), of buffers wrapping whole arrays. */
    private static int compareUnsigned(final ByteBuffer a, final ByteBuffer b) {
        return Arrays.compareUnsigned(a.array(), b.array());
    }

    static byte[] bytes(final ByteBuffer buffer) {
        final byte[] bytes = new byte[buffer.remaining()];
        buffer.duplicate().get(bytes);
        return bytes;
    }

}
