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
 * <p>Loaded on a thread of its own: the first processor to acquire it must not wait in
 * {@code init} (Jet starts cooperative processors from the operation thread that received the
 * start and holds it until every {@code init} returns; remote calls there can wait for operation
 * threads held the same way on other members). Processors do not handle records until
 * {@link #isLoaded()}.
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
    /** Null while loading or once loaded; the failure when the load failed. */
    private volatile RuntimeException failure;
    /** Guarded by {@code SHARED}. */
    private UUID registration;
    /** Guarded by {@code SHARED}: released by its last user (a registration made after that is removed at once). */
    private boolean closed;
    private int users;

    private DimensionReplica(final String id, final HazelcastInstance hazelcast, final String mapName) {
        this.id = id;
        this.mapName = mapName;
        this.map = hazelcast.getMap(mapName);
    }

    /**
     * The replica of {@code mapName} on this member, loading or loaded (see {@link #isLoaded()});
     * call {@link #release()} when done. Returns at once.
     */
    static DimensionReplica acquire(final HazelcastInstance hazelcast, final String mapName) {
        final String id = hazelcast.getName() + "/" + mapName;
        synchronized (SHARED) {
            DimensionReplica replica = SHARED.get(id);
            if (replica == null) {
                replica = new DimensionReplica(id, hazelcast, mapName);
                SHARED.put(id, replica);
                final Thread loader = new Thread(replica::load, "streamgrid-dimension-load-" + mapName);
                loader.setDaemon(true);
                loader.start();
            }
            replica.users++;
            return replica;
        }
    }

    /** Whether the initial load is done. @throws IllegalStateException naming the map when the load failed */
    boolean isLoaded() {
        final RuntimeException failed = failure;
        if (failed != null) {
            throw new IllegalStateException("loading dimension map " + mapName + " into this member's replica failed: " + failed,
                    failed);
        }
        return !loading;
    }

    private void load() {
        try {
            start();
        } catch (final RuntimeException e) {
            failure = e;
            synchronized (SHARED) {
                SHARED.remove(id, this); // a job restarted after the failure loads afresh
            }
        }
    }

    private void start() {
        final UUID listening = map.addEntryListener(new Listener(), true);
        synchronized (SHARED) {
            if (closed) {
                map.removeEntryListener(listening); // every user released it while the registration was under way
                return;
            }
            registration = listening;
        }
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
                SHARED.remove(id, this);
                closed = true;
                if (registration != null) {
                    map.removeEntryListener(registration);
                }
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
