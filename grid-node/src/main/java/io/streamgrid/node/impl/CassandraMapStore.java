package io.streamgrid.node.impl;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.MapLoader;
import com.hazelcast.map.MapLoaderLifecycleSupport;
import com.hazelcast.map.MapStore;
import com.hazelcast.map.MapStoreFactory;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * Keeps one persisted state map in the member's {@link StateTable}: Hazelcast calls it to write
 * changes (through or behind, as configured) and to load entries back after a restart. Values are
 * handed back in serialized form, so the member never needs a user's value class. Failures are
 * thrown to Hazelcast: a write-behind batch stays queued and is tried again, a write-through write
 * fails its caller.
 */
final class CassandraMapStore implements MapStore<Object, Object>, MapLoaderLifecycleSupport {
    private static final Logger LOG = Logger.getLogger(CassandraMapStore.class.getName());
    /**
     * Map-store property: "false" turns off the read of one key ({@link #load}) for a map that is
     * loaded whole before first use and never evicts, where a key not in memory is not in Cassandra
     * either, and whose writes would otherwise each read Cassandra first (Hazelcast reads the old
     * value on a put).
     */
    static final String READ_BY_KEY = "streamgrid.read-by-key";

    private final StateTable table;
    private HazelcastInstance hazelcast;
    private String map;
    private boolean readByKey;

    private CassandraMapStore(final StateTable table) {
        this.table = table;
    }

    /** Makes the store of each persisted map; all share {@code table}. */
    static MapStoreFactory<Object, Object> factory(final StateTable table) {
        return new MapStoreFactory<>() {
            @Override
            public MapLoader<Object, Object> newMapStore(final String mapName, final Properties properties) {
                return new CassandraMapStore(table);
            }
        };
    }

    @Override
    public void init(final HazelcastInstance hazelcast, final Properties properties, final String mapName) {
        table.open(hazelcast);
        this.hazelcast = hazelcast;
        map = mapName;
        readByKey = !"false".equals(properties.getProperty(READ_BY_KEY));
    }

    /**
     * Hazelcast calls this when the map is destroyed ({@code IMap.destroy()}, Jet dropping a finished
     * job's snapshots) and when the member stops. A destroyed map's rows are deleted, or the next
     * start would load it again; a stopping member keeps them (the table itself is the member's,
     * closed after it stopped).
     */
    @Override
    public void destroy() {
        if (hazelcast != null && hazelcast.getLifecycleService().isRunning()) {
            table.deleteMap(map);
        }
    }

    @Override
    public void store(final Object key, final Object value) {
        table.write(map, Map.of(key, value));
    }

    @Override
    public void storeAll(final Map<Object, Object> entries) {
        table.write(map, entries);
    }

    @Override
    public void delete(final Object key) {
        table.delete(map, List.of(key));
    }

    @Override
    public void deleteAll(final Collection<Object> keys) {
        table.delete(map, keys);
    }

    /**
     * Reads one key (Hazelcast's read-through: a get that misses memory, a put returning the old
     * value); null without reading for a map whose store has {@link #READ_BY_KEY} "false".
     */
    @Override
    public Object load(final Object key) {
        return readByKey ? table.read(map, key) : null;
    }

    /**
     * Reads the stored values of {@code keys} for Hazelcast's load. A failed read is tried again,
     * every {@link StatePersistence#RETRY_MS} and logged each time, until it succeeds or the member
     * stops: Hazelcast itself would log the failure and count the map as loaded without those keys,
     * a member ready with part of its state gone. Meanwhile the map's load is unfinished and the
     * member not ready. A value that can never be read (a part deleted by hand) keeps it so, the
     * log naming the map and the value's bucket: delete the value's row to give it up.
     */
    @Override
    public Map<Object, Object> loadAll(final Collection<Object> keys) {
        for (int attempt = 1; ; attempt++) {
            try {
                return table.readAll(map, keys);
            } catch (final RuntimeException e) {
                StatePersistence.pauseBeforeRetry(LOG, map + ": reading " + keys.size() + " stored values (attempt " + attempt + ")", e,
                        () -> hazelcast.getLifecycleService().isRunning());
            }
        }
    }

    /** Every stored key; a page that fails to arrive is asked for again until it does or the member stops ({@link #loadAll}'s reason). */
    @Override
    public Iterable<Object> loadAllKeys() {
        return table.keys(map, () -> hazelcast.getLifecycleService().isRunning());
    }
}
