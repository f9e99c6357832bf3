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
import java.util.logging.Logger;

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
 *
 * <p>A replica of a map looked up as of event time ({@code Lookup.asOfEventTime}) also indexes its
 * entries — versions under {@code "<key>@<validFromMs>"} — by key and time, updated in the same
 * atomic step as the entry, so an event finds the version valid at its time with a hash lookup and
 * a binary search.
 */
final class DimensionReplica {
    private static final Map<String, DimensionReplica> SHARED = new HashMap<>();

    private final String id;
    private final String mapName;
    private final IMap<Object, Object> map;
    private static final Logger LOG = Logger.getLogger(DimensionReplica.class.getName());

    private final ConcurrentHashMap<Object, Object> values = new ConcurrentHashMap<>();
    /** Versioned replicas only (else null): per key, its versions by valid-from time. */
    private final ConcurrentHashMap<Object, Versions> versions;
    /** Versioned replicas: whether keys are longs (else strings), as the lookup's key field. */
    private final boolean longKeys;
    /**
     * Versioned replicas: the latest event time looked up, to tell a backdated version when one
     * arrives. Plain, not volatile: written by every processor per event, read by the listener only to
     * decide whether to log, so a stale read costs at most a missed warning, not a fence per event.
     */
    private long lookedUpTo = Long.MIN_VALUE;
    private final Set<Object> removedDuringLoad = ConcurrentHashMap.newKeySet();
    private volatile boolean loading = true;
    /** Null while loading or once loaded; the failure when the load failed. */
    private volatile RuntimeException failure;
    /** Guarded by {@code SHARED}. */
    private UUID registration;
    /** Guarded by {@code SHARED}: released by its last user (a registration made after that is removed at once). */
    private boolean closed;
    private int users;

    private DimensionReplica(final String id, final HazelcastInstance hazelcast, final String mapName, final Versioning versioning) {
        this.id = id;
        this.mapName = mapName;
        this.map = hazelcast.getMap(mapName);
        this.versions = versioning == Versioning.LATEST ? null : new ConcurrentHashMap<>();
        this.longKeys = versioning == Versioning.LONG_KEYS;
    }

    /** What a replica keeps: the latest value per key, or versions by time with long or string keys. */
    enum Versioning {
        LATEST, LONG_KEYS, STRING_KEYS
    }

    /**
     * The replica of {@code mapName} on this member, loading or loaded (see {@link #isLoaded()});
     * call {@link #release()} when done. Returns at once.
     */
    static DimensionReplica acquire(final HazelcastInstance hazelcast, final String mapName, final Versioning versioning) {
        final String id = hazelcast.getName() + "/" + mapName + "/" + versioning;
        synchronized (SHARED) {
            DimensionReplica replica = SHARED.get(id);
            if (replica == null) {
                replica = new DimensionReplica(id, hazelcast, mapName, versioning);
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
            if (!removedDuringLoad.contains(entry.getKey()) && putIfAbsent(entry.getKey(), entry.getValue())
                    && removedDuringLoad.contains(entry.getKey())) {
                remove(entry.getKey(), entry.getValue()); // removed between the check and the put
            }
        }
        loading = false;
        removedDuringLoad.clear();
    }

    Object get(final Object key) {
        return values.get(key);
    }

    /** The version of {@code key} valid at {@code time} (the latest valid from it or before), or null. Versioned replicas. */
    Object getAsOf(final Object key, final long time) {
        if (time > lookedUpTo) {
            lookedUpTo = time; // a racy maximum: it only decides whether a late version is logged
        }
        final Versions ofKey = versions.get(key);
        return ofKey == null ? null : ofKey.at(time);
    }

    // ---- changes: the entry and its version index in one atomic step per entry ----

    private void put(final Object key, final Object value, final boolean fromEvent) {
        values.compute(key, (k, old) -> {
            index(k, value, fromEvent);
            return value;
        });
    }

    /** Puts unless the key is there; whether it put. */
    private boolean putIfAbsent(final Object key, final Object value) {
        final boolean[] put = new boolean[1];
        values.computeIfAbsent(key, k -> {
            index(k, value, false);
            put[0] = true;
            return value;
        });
        return put[0];
    }

    private void remove(final Object key) {
        values.computeIfPresent(key, (k, old) -> {
            unindex(k);
            return null;
        });
    }

    private void remove(final Object key, final Object value) {
        values.computeIfPresent(key, (k, old) -> {
            if (!old.equals(value)) {
                return old;
            }
            unindex(k);
            return null;
        });
    }

    private void index(final Object entryKey, final Object value, final boolean fromEvent) {
        if (versions == null) {
            return;
        }
        final VersionKey version = VersionKey.parse(entryKey, longKeys);
        if (version == null) {
            LOG.warning("dimension map " + mapName + " is looked up as of event time, but its key '" + entryKey
                    + "' is not <key>@<validFromMs> (Lookup.versionKey): ignored");
            return;
        }
        versions.compute(version.key(), (k, ofKey) -> (ofKey == null ? Versions.NONE : ofKey).with(version.validFrom(), value));
        if (fromEvent && version.validFrom() <= lookedUpTo) {
            LOG.warning("dimension map " + mapName + ": version " + entryKey + " arrived after events up to " + lookedUpTo
                    + " were looked up — backdated: events of its time already processed saw the version before it, a replay "
                    + "will see this one");
        }
    }

    private void unindex(final Object entryKey) {
        if (versions == null) {
            return;
        }
        final VersionKey version = VersionKey.parse(entryKey, longKeys);
        if (version != null) {
            versions.computeIfPresent(version.key(), (k, ofKey) -> ofKey.without(version.validFrom()));
        }
    }

    /**
     * A key's versions, sorted by valid-from time: immutable, replaced whole on a change (versions
     * change rarely, events look them up all the time), so a lookup is a binary search over a
     * {@code long[]} with no lock and no allocation.
     */
    private record Versions(long[] validFrom, Object[] values) {
        static final Versions NONE = new Versions(new long[0], new Object[0]);

        /** The value valid at {@code time}: the latest valid from it or before; null before the first. */
        Object at(final long time) {
            final int found = java.util.Arrays.binarySearch(validFrom, time);
            final int index = found >= 0 ? found : -found - 2;
            return index < 0 ? null : values[index];
        }

        Versions with(final long time, final Object value) {
            final int found = java.util.Arrays.binarySearch(validFrom, time);
            if (found >= 0) {
                final Object[] replaced = values.clone();
                replaced[found] = value;
                return new Versions(validFrom, replaced);
            }
            final int at = -found - 1;
            final long[] times = new long[validFrom.length + 1];
            final Object[] all = new Object[values.length + 1];
            System.arraycopy(validFrom, 0, times, 0, at);
            System.arraycopy(values, 0, all, 0, at);
            times[at] = time;
            all[at] = value;
            System.arraycopy(validFrom, at, times, at + 1, validFrom.length - at);
            System.arraycopy(values, at, all, at + 1, values.length - at);
            return new Versions(times, all);
        }

        /** Without the version valid from {@code time}; null when none is left (the key is dropped). */
        Versions without(final long time) {
            final int found = java.util.Arrays.binarySearch(validFrom, time);
            if (found < 0) {
                return this;
            }
            if (validFrom.length == 1) {
                return null;
            }
            final long[] times = new long[validFrom.length - 1];
            final Object[] rest = new Object[values.length - 1];
            System.arraycopy(validFrom, 0, times, 0, found);
            System.arraycopy(values, 0, rest, 0, found);
            System.arraycopy(validFrom, found + 1, times, found, times.length - found);
            System.arraycopy(values, found + 1, rest, found, rest.length - found);
            return new Versions(times, rest);
        }
    }

    /** A version's key and valid-from time, from its entry key {@code "<key>@<validFromMs>"}. */
    private record VersionKey(Object key, long validFrom) {
        static VersionKey parse(final Object entryKey, final boolean longKeys) {
            if (!(entryKey instanceof String text)) {
                return null;
            }
            final int at = text.lastIndexOf('@');
            try {
                final long validFrom = Long.parseLong(text.substring(at + 1));
                final String key = text.substring(0, Math.max(0, at));
                return at <= 0 ? null : new VersionKey(longKeys ? (Object) Long.parseLong(key) : key, validFrom);
            } catch (final NumberFormatException notAVersion) {
                return null;
            }
        }
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
        remove(key);
        if (loading) {
            removedDuringLoad.add(key);
        }
    }

    private final class Listener implements EntryAddedListener<Object, Object>, EntryUpdatedListener<Object, Object>,
            EntryRemovedListener<Object, Object>, EntryEvictedListener<Object, Object>, EntryExpiredListener<Object, Object>,
            MapClearedListener {
        @Override
        public void entryAdded(final EntryEvent<Object, Object> event) {
            put(event.getKey(), event.getValue(), true);
            removedDuringLoad.remove(event.getKey());
        }

        @Override
        public void entryUpdated(final EntryEvent<Object, Object> event) {
            put(event.getKey(), event.getValue(), true);
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
