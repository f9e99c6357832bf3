package io.streamgrid.node.impl;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.internal.serialization.impl.HeapData;
import com.hazelcast.internal.serialization.impl.compact.Schema;
import com.hazelcast.internal.serialization.impl.compact.schema.MemberSchemaService;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
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
 * <p>A value whose serialized form is larger than {@link #PART_BYTES} goes to {@code <table>_parts}
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
    /** Requests in flight per batch: enough to keep a node busy, few enough not to overload it. */
    private static final int IN_FLIGHT = 64;
    /** Keys per IN query of a load (every key of one query is in one Cassandra partition); more are read by a range scan. */
    private static final int KEYS_PER_QUERY = 100;
    /** Rows per page of a range read (a load's, a key listing's: {@link StoredKeys}). */
    static final int PAGE_SIZE = 5_000;
    private static final long PROGRESS_EVERY = 100_000;
    /**
     * Values larger than this (serialized) are stored in parts of this size: half of Cassandra's
     * 16 MiB limits, and above the snapshot entries StreamGrid's own processors write (at most
     * 6 MiB, {@code SnapshotEntries.MAX_BYTES}), so a durable job's snapshot costs no extra requests.
     */
    static final int PART_BYTES = 8 << 20;
    /** Parts are read one per page: a response holds at most one. */
    private static final int PARTS_PER_PAGE = 1;
    /** The marker's type id, where a serialized value has its serializer's: no serializer has it (Hazelcast refuses ids below 1 for users' own). */
    private static final int MARKER_TYPE_ID = Integer.MIN_VALUE;
    private static final int MARKER_BYTES = 24;

    private final PersistenceSettings settings;
    /** keyspace.table */
    private final String table;
    /** Each map's time to live, from its Hazelcast config (0: none), looked up once per map. */
    private final Map<String, Integer> ttlSecondsByMap = new ConcurrentHashMap<>();
    private final Set<Long> schemasWritten = ConcurrentHashMap.newKeySet();
    private final Set<String> mapsRegistered = ConcurrentHashMap.newKeySet();
    private final Map<String, AtomicLong> loadedByMap = new ConcurrentHashMap<>();
    /** Maps this member wrote or read a value in parts of: their small writes and deletes remove a key's parts too. */
    private final Set<String> mapsWithParts = ConcurrentHashMap.newKeySet();
    private volatile Opened opened;

    /** What {@link #open} makes: the session, its statements and the member's services. */
    private record Opened(CqlSession session, NodeEngine nodeEngine, PreparedStatement insert, PreparedStatement delete,
                          PreparedStatement selectOne, PreparedStatement selectIn, PreparedStatement selectRange,
                          PreparedStatement selectKeys, PreparedStatement selectMaps, PreparedStatement selectMap, PreparedStatement insertMap,
                          PreparedStatement insertSchema, PreparedStatement deleteBucket, PreparedStatement deleteMap,
                          PartStatements parts, BucketClock clock) {
        SerializationService serialization() {
            return nodeEngine.getSerializationService();
        }

        MemberSchemaService schemas() {
            return nodeEngine.getSchemaService();
        }
    }

    /** The statements of {@code <table>_parts}. */
    private record PartStatements(PreparedStatement insert, PreparedStatement select, PreparedStatement deleteOlder,
                                  PreparedStatement deleteKey, PreparedStatement deleteBucket) {
    }

    /** A map whose entries expire (its Hazelcast config has a time to live) writes its rows with the same time to live. */
    StateTable(final PersistenceSettings settings) {
        this.settings = settings;
        this.table = settings.cassandra().keyspace() + "." + settings.table();
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
            session.execute("CREATE KEYSPACE IF NOT EXISTS " + settings.cassandra().keyspace()
                    + " WITH replication = " + settings.cassandra().replication());
            session.execute("CREATE TABLE IF NOT EXISTS " + table
                    + " (map text, bucket int, key blob, value blob, PRIMARY KEY ((map, bucket), key))");
            session.execute("CREATE TABLE IF NOT EXISTS " + table + "_maps (map text PRIMARY KEY)");
            session.execute("CREATE TABLE IF NOT EXISTS " + table + "_schemas (id bigint PRIMARY KEY, definition blob)");
            session.execute("CREATE TABLE IF NOT EXISTS " + table + "_parts (map text, bucket int, key blob, generation bigint,"
                    + " part int, value blob, PRIMARY KEY ((map, bucket), key, generation, part))");
            final Opened ready = new Opened(session, nodeEngine,
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
                    session.prepare("DELETE FROM " + table + " WHERE map = ? AND bucket = ?"),
                    session.prepare("DELETE FROM " + table + "_maps WHERE map = ?"),
                    new PartStatements(
                            session.prepare("INSERT INTO " + table + "_parts (map, bucket, key, generation, part, value)"
                                    + " VALUES (?, ?, ?, ?, ?, ?) USING TTL ?"),
                            session.prepare("SELECT part, value FROM " + table + "_parts"
                                    + " WHERE map = ? AND bucket = ? AND key = ? AND generation = ?"),
                            session.prepare("DELETE FROM " + table + "_parts WHERE map = ? AND bucket = ? AND key = ? AND generation < ?"),
                            session.prepare("DELETE FROM " + table + "_parts WHERE map = ? AND bucket = ? AND key = ?"),
                            session.prepare("DELETE FROM " + table + "_parts WHERE map = ? AND bucket = ?")),
                    new BucketClock(session, table, nodeEngine.getPartitionService()));
            int restored = 0;
            for (final Row row : session.execute("SELECT id, definition FROM " + table + "_schemas")) {
                final Schema schema = ready.serialization().toObject(new HeapData(bytes(row.getByteBuffer("definition"))));
                ready.schemas().putLocal(schema);
                schemasWritten.add(row.getLong("id"));
                restored++;
            }
            final int count = restored;
            LOG.info(() -> "state persistence: " + count + " Compact schemas restored from " + table + "_schemas");
            opened = ready;
        } catch (final RuntimeException e) {
            session.close();
            throw e;
        }
    }

    /** The names of the maps that have rows in the table (registered when they were first written). */
    List<String> persistedMaps() {
        final List<String> maps = new ArrayList<>();
        final Opened o = opened();
        for (final Row row : o.session().execute(o.selectMaps().bind())) {
            maps.add(row.getString("map"));
        }
        return maps;
    }

    /** Writes {@code entries} (keys and values as Hazelcast hands them to a map store) of {@code map}. */
    void write(final String map, final Map<?, ?> entries) {
        final Opened o = opened();
        register(o, map);
        // Hazelcast's expiry never deletes from the store: without a row TTL an expired entry would
        // stay in Cassandra for ever and come back at the next start.
        final int ttl = ttlSecondsByMap.computeIfAbsent(map, name -> o.nodeEngine().getConfig().findMapConfig(name).getTimeToLiveSeconds());
        final List<BoundStatement> inserts = new ArrayList<>(entries.size());
        final List<BoundStatement> partDeletes = new ArrayList<>();
        final List<Runnable> large = new ArrayList<>();
        final boolean mayHaveParts = mapsWithParts.contains(map);
        for (final Map.Entry<?, ?> entry : entries.entrySet()) {
            final Data key = toData(o, entry.getKey());
            final int bucket = bucket(o, key);
            final byte[] keyBytes = key.toByteArray();
            final byte[] value = toData(o, entry.getValue()).toByteArray();
            if (value.length > PART_BYTES) {
                large.add(() -> writeInParts(o, map, bucket, keyBytes, value, ttl));
                continue;
            }
            final long timestamp = o.clock().next(bucket);
            inserts.add(o.insert().bind(map, bucket, ByteBuffer.wrap(keyBytes), ByteBuffer.wrap(value), ttl).setQueryTimestamp(timestamp));
            if (mayHaveParts) {
                partDeletes.add(o.parts().deleteKey().bind(map, bucket, ByteBuffer.wrap(keyBytes)).setQueryTimestamp(timestamp));
            }
        }
        // After serialising: that is when a value's schema reaches the member's registry.
        writeNewSchemas(o);
        runAll(o, inserts);
        runAll(o, partDeletes);
        large.forEach(Runnable::run);
    }

    /**
     * Writes {@code value} as parts of a new generation, then the key's row as a marker naming it,
     * then deletes the key's older generations: until the marker is written the previous value is
     * the one read, and it is never mixed with the new one's parts.
     */
    private void writeInParts(final Opened o, final String map, final int bucket, final byte[] key, final byte[] value,
                              final int ttl) {
        mapsWithParts.add(map);
        // The generation is a timestamp of the bucket's clock: a later value of the key, whoever writes it, has a higher one.
        final long generation = o.clock().next(bucket);
        final int count = (value.length + PART_BYTES - 1) / PART_BYTES;
        final List<BoundStatement> parts = new ArrayList<>(count);
        for (int part = 0; part < count; part++) {
            final int from = part * PART_BYTES;
            parts.add(o.parts().insert().bind(map, bucket, ByteBuffer.wrap(key), generation, part,
                    ByteBuffer.wrap(value, from, Math.min(PART_BYTES, value.length - from)), ttl).setQueryTimestamp(generation));
        }
        runAll(o, parts);
        final ByteBuffer marker = ByteBuffer.allocate(MARKER_BYTES).putInt(0).putInt(MARKER_TYPE_ID)
                .putLong(generation).putInt(count).putInt(value.length).flip();
        // The marker and the deletion of older generations carry the generation as their timestamp, so that of two
        // writers of one key (an old owner flushing its write-behind queue while the new owner writes, their clocks
        // interleaving) the higher generation wins both: the marker Cassandra keeps names the parts that survive.
        // With a timestamp of their own, a lower generation's marker could win while the higher one's deletion had
        // removed its parts — a marker naming no parts, the map never loading (seen in a clean-clone run).
        o.session().execute(o.insert().bind(map, bucket, ByteBuffer.wrap(key), marker, ttl).setQueryTimestamp(generation));
        o.session().execute(o.parts().deleteOlder().bind(map, bucket, ByteBuffer.wrap(key), generation).setQueryTimestamp(generation));
    }

    /** Whether a stored value is a marker of a value in parts. */
    private static boolean isMarker(final ByteBuffer value) {
        return value.remaining() == MARKER_BYTES && value.getInt(value.position() + 4) == MARKER_TYPE_ID;
    }

    /** The value a marker names, put together from its parts; fails naming the key when a part is missing. */
    private Data readParts(final Opened o, final String map, final int bucket, final ByteBuffer key, final ByteBuffer marker) {
        mapsWithParts.add(map);
        final long generation = marker.getLong(marker.position() + 8);
        final int count = marker.getInt(marker.position() + 16);
        final int length = marker.getInt(marker.position() + 20);
        final byte[] value = new byte[length];
        int found = 0;
        for (final Row row : o.session().execute(o.parts().select().bind(map, bucket, key, generation).setPageSize(PARTS_PER_PAGE))) {
            final int part = row.getInt("part");
            final ByteBuffer data = row.getByteBuffer("value");
            final int expected = Math.min(PART_BYTES, length - part * PART_BYTES);
            if (part < 0 || part >= count || data == null || data.remaining() != expected) {
                throw new IllegalStateException("state persistence: " + map + ": part " + part + " of a value stored in " + count
                        + " parts (generation " + generation + ") has " + (data == null ? 0 : data.remaining())
                        + " bytes, expected " + expected + ": the stored value is corrupt");
            }
            data.duplicate().get(value, part * PART_BYTES, expected);
            found++;
        }
        // Parts are distinct (the primary key) and each had its expected size: all of them are the whole value.
        if (found != count) {
            throw new IllegalStateException("state persistence: " + map + ": a value stored in " + count + " parts (generation "
                    + generation + ", bucket " + bucket + ") has " + found + " of them in " + table
                    + "_parts: the stored value is incomplete (its map is not loaded until it is whole)");
        }
        return new HeapData(value);
    }

    void delete(final String map, final Collection<?> keys) {
        final Opened o = opened();
        final List<BoundStatement> deletes = new ArrayList<>(keys.size());
        final boolean mayHaveParts = mapsWithParts.contains(map);
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
        runAll(o, deletes);
    }

    /**
     * Deletes the rows of {@code map} in the buckets this member owns, and the map's name from
     * {@code <table>_maps}: a destroyed map does not come back at the next start. Every member of the
     * cluster calls it, so every bucket is deleted by its owner. A bucket whose partition has no
     * owner at that moment keeps its rows: not loaded while the map is not listed, back if a map of
     * the same name is written again.
     */
    void deleteMap(final String map) {
        final Opened o = opened();
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
        runAll(o, deletes);
        mapsRegistered.remove(map);
        mapsWithParts.remove(map);
        o.session().execute(o.deleteMap().bind(map).setQueryTimestamp(o.clock().nextShared()));
        loadedByMap.remove(map);
    }

    /** The stored value of {@code key} in serialized form, or null. */
    Data read(final String map, final Object key) {
        final Opened o = opened();
        final Data data = toData(o, key);
        final int bucket = bucket(o, data);
        final ByteBuffer keyBytes = ByteBuffer.wrap(data.toByteArray());
        final Row row = o.session().execute(o.selectOne().bind(map, bucket, keyBytes)).one();
        if (row == null) {
            return null;
        }
        final ByteBuffer value = row.getByteBuffer("value");
        return isMarker(value) ? readParts(o, map, bucket, keyBytes, value) : new HeapData(bytes(value));
    }

    /** The stored values of those of {@code keys} that have one, keyed by the keys as given. */
    Map<Object, Object> readAll(final String map, final Collection<?> keys) {
        final Opened o = opened();
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
        runAll(o, queries, (statement, row) -> {
            final int bucket = statement.getInt(1);
            final ByteBuffer rowKey = row.getByteBuffer("key");
            final Object key = keysByBucket.get(bucket).get(rowKey);
            if (key != null) {
                final ByteBuffer value = row.getByteBuffer("value");
                if (isMarker(value)) {
                    final ByteBuffer keyCopy = ByteBuffer.wrap(bytes(rowKey));
                    final ByteBuffer markerCopy = ByteBuffer.wrap(bytes(value));
                    inParts.put(key, () -> found.put(key, readParts(o, map, bucket, keyCopy, markerCopy)));
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
        final Opened o = opened();
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

    private Opened opened() {
        final Opened o = opened;
        if (o == null) {
            throw new IllegalStateException("state persistence is not open (the member is stopping or has not started)");
        }
        return o;
    }

    private void register(final Opened o, final String map) {
        if (!mapsRegistered.contains(map)) {
            o.session().execute(o.insertMap().bind(map).setQueryTimestamp(o.clock().nextShared()));
            mapsRegistered.add(map);
        }
    }

    /** Writes the member's Compact schemas not written yet: a value is never stored before its schema. */
    private void writeNewSchemas(final Opened o) {
        final List<Schema> fresh = new ArrayList<>();
        for (final Schema schema : o.schemas().getAllSchemas()) {
            if (!schemasWritten.contains(schema.getSchemaId())) {
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
        runAll(o, inserts);
        fresh.forEach(schema -> schemasWritten.add(schema.getSchemaId()));
    }

    private static Data toData(final Opened o, final Object value) {
        return value instanceof Data data ? data : o.serialization().toData(value);
    }

    /** The key's partition: the bucket of its row. */
    private static int bucket(final Opened o, final Data key) {
        return o.nodeEngine().getPartitionService().getPartitionId(key);
    }

    private static void runAll(final Opened o, final List<BoundStatement> statements) {
        runAll(o, statements, (statement, row) -> { });
    }

    /**
     * Runs {@code statements} with at most {@link #IN_FLIGHT} at a time, handing every row of every
     * page to {@code onRow} (from the driver's threads); throws the first failure after all ended.
     */
    private static void runAll(final Opened o, final List<BoundStatement> statements, final BiConsumer<BoundStatement, Row> onRow) {
        final Semaphore permits = new Semaphore(IN_FLIGHT);
        final List<CompletableFuture<Void>> all = new ArrayList<>(statements.size());
        try {
            for (final BoundStatement statement : statements) {
                permits.acquire();
                all.add(o.session().executeAsync(statement).thenCompose(page -> drain(page, row -> onRow.accept(statement, row)))
                        .whenComplete((ignored, failure) -> permits.release()).toCompletableFuture());
            }
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for Cassandra", e);
        } catch (final CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }

    private static CompletionStage<Void> drain(final AsyncResultSet page, final Consumer<Row> onRow) {
        for (final Row row : page.currentPage()) {
            onRow.accept(row);
        }
        return page.hasMorePages() ? page.fetchNextPage().thenCompose(next -> drain(next, onRow)) : CompletableFuture.completedFuture(null);
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
