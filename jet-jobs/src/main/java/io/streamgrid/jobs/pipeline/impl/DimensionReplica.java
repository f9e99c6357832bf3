package io.streamgrid.jobs.pipeline.impl;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.MapEvent;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryEvictedListener;
import com.hazelcast.map.listener.EntryExpiredListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import com.hazelcast.map.listener.MapClearedListener;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A member-local copy of a dimension map ({@code dim.*}) for lookup joins: one per member and map,
 * shared by every processor of every job that looks it up, released when the last one closes.
 * Reads are a hash lookup — no remote call per event.
 *
 * <p>Kept current by an entry listener registered before the initial load, so no write in between
 * is missed. Per key Hazelcast delivers a map's events in order, so the replica never goes back to
 * an older value. The initial load cannot overwrite what an event already put (putIfAbsent), nor
 * bring back what an event removed meanwhile (keys removed during the load are remembered).
 */
final class DimensionReplica {
    private static final Map<String, DimensionReplica> SHARED = new HashMap<>();

    private final String id;
    private final String mapName;
    private final IMap<Object, Object> map;
    private final ConcurrentHashMap<Object, Object> values = new ConcurrentHashMap<>();
    private final Set<Object> removedDuringLoad = ConcurrentHashMap.newKeySet();
    private volatile boolean loading = true;
    private UUID registration;
    private int users;

    private DimensionReplica(final String id, final HazelcastInstance hazelcast, final String mapName) {
        this.id = id;
        this.mapName = mapName;
        this.map = hazelcast.getMap(mapName);
    }

    /** The replica of {@code mapName} on this member, loaded; call {@link #release()} when done. */
    static DimensionReplica acquire(final HazelcastInstance hazelcast, final String mapName) {
        final String id = hazelcast.getName() + "/" + mapName;
        synchronized (SHARED) {
            DimensionReplica replica = SHARED.get(id);
            if (replica == null) {
                replica = new DimensionReplica(id, hazelcast, mapName);
                replica.start();
                SHARED.put(id, replica);
            }
            replica.users++;
            return replica;
        }
    }

    private void start() {
        registration = map.addEntryListener(new Listener(), true);
        for (final Map.Entry<Object, Object> entry : map.entrySet()) {
            if (!removedDuringLoad.contains(entry.getKey()) && values.putIfAbsent(entry.getKey(), entry.getValue()) == null
                    && removedDuringLoad.contains(entry.getKey())) {
                values.remove(entry.getKey(), entry.getValue()); // removed between the check and the put
            }
        }
        loading = false;
        removedDuringLoad.clear();
    }

    Object get(final Object key) {
        return values.get(key);
    }

    String mapName() {
        return mapName;
    }

    int size() {
        return values.size();
    }

    void release() {
        synchronized (SHARED) {
            if (--users == 0) {
                SHARED.remove(id);
                map.removeEntryListener(registration);
            }
        }
    }

    private void removed(final Object key) {
        values.remove(key);
        if (loading) {
            removedDuringLoad.add(key);
        }
    }

    private final class Listener implements EntryAddedListener<Object, Object>, EntryUpdatedListener<Object, Object>,
            EntryRemovedListener<Object, Object>, EntryEvictedListener<Object, Object>, EntryExpiredListener<Object, Object>,
            MapClearedListener {
        @Override
        public void entryAdded(final EntryEvent<Object, Object> event) {
            values.put(event.getKey(), event.getValue());
            removedDuringLoad.remove(event.getKey());
        }

        @Override
        public void entryUpdated(final EntryEvent<Object, Object> event) {
            values.put(event.getKey(), event.getValue());
            removedDuringLoad.remove(event.getKey());
        }

        @Override
        public void entryRemoved(final EntryEvent<Object, Object> event) {
            removed(event.getKey());
        }

        @Override
        public void entryEvicted(final EntryEvent<Object, Object> event) {
            removed(event.getKey());
        }

        @Override
        public void entryExpired(final EntryEvent<Object, Object> event) {
            removed(event.getKey());
        }

        @Override
        public void mapCleared(final MapEvent event) {
            values.keySet().forEach(DimensionReplica.this::removed);
        }
    }
}
