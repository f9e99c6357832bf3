package io.streamgrid.node.impl;

import com.hazelcast.config.Config;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.map.IMap;
import io.streamgrid.node.PersistenceSettings;

import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A member's persistence of state maps at run time: opens the member's {@link StateTable} (which
 * restores the stored Compact schemas) and, with {@code initial-load: eager}, loads every persisted
 * map — in the background, so that the member joins its cluster first and the load is spread over
 * all members that start together. Operations on a map that is still loading wait for it. Until
 * all of that is done the member is not ready ({@link #waitingFor()}, served at {@code /ready}).
 */
public final class StatePersistence implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(StatePersistence.class.getName());
    /** Pause between attempts after a failed load (Cassandra went away meanwhile, say); the map store's too. */
    static final long RETRY_MS = 5_000;

    /**
     * After a failed read of persisted state (a load's values, a key listing's page): throws
     * {@code failure} when {@code keepTrying} says no or the pause is interrupted, else logs that
     * {@code what} failed and pauses {@link #RETRY_MS} before the caller reads again. Hazelcast would
     * count a map whose read failed as loaded, without those keys: so the caller tries again.
     */
    static void pauseBeforeRetry(final Logger log, final String what, final RuntimeException failure, final BooleanSupplier keepTrying) {
        if (!keepTrying.getAsBoolean()) {
            throw failure;
        }
        log.log(Level.SEVERE, "state persistence: " + what + " failed; the map stays unloaded and the member not ready until"
                + " it succeeds: trying again in " + RETRY_MS / 1000 + " s", failure);
        try {
            Thread.sleep(RETRY_MS);
        } catch (final InterruptedException stopped) {
            Thread.currentThread().interrupt();
            throw failure;
        }
    }
    private final StateTable table;
    private final HazelcastInstance hazelcast;
    private final PersistenceSettings settings;
    private final Thread loader;
    /** What the member still waits for before it is ready; null once the persisted state is loaded. */
    private volatile String waitingFor = "Cassandra: opening the state table";

    private StatePersistence(final StateTable table, final HazelcastInstance hazelcast, final PersistenceSettings settings) {
        this.table = table;
        this.hazelcast = hazelcast;
        this.settings = settings;
        this.loader = new Thread(this::loadUntilDone, "streamgrid-state-load");
        loader.setDaemon(true);
    }

    /**
     * Starts persistence on a member made from {@code config} ({@link HazelcastConfigFactory#memberConfig});
     * null when persistence is off. While Cassandra is unreachable the background start keeps
     * trying (the driver logs each attempt), persisted maps' operations wait and the member is not
     * ready.
     */
    public static StatePersistence start(final HazelcastInstance hazelcast, final Config config, final PersistenceSettings settings) {
        final StateTable table = (StateTable) config.getUserContext().get(StateTable.USER_CONTEXT_KEY);
        if (table == null) {
            return null;
        }
        final StatePersistence persistence = new StatePersistence(table, hazelcast, settings);
        persistence.loader.start();
        return persistence;
    }

    /**
     * What this member still waits for before its persisted state is loaded and jobs can resume
     * (Cassandra, Jet's job records, the persisted maps), or null once it is.
     */
    public String waitingFor() {
        return waitingFor;
    }

    /** Opens and loads; after a failure (Cassandra gone meanwhile) tries again until done or the member stops. */
    private void loadUntilDone() {
        while (hazelcast.getLifecycleService().isRunning()) {
            try {
                openAndLoad();
                waitingFor = null;
                return;
            } catch (final RuntimeException e) {
                if (!hazelcast.getLifecycleService().isRunning()) {
                    return;
                }
                LOG.log(Level.SEVERE, "state persistence: loading the persisted state failed while " + waitingFor
                        + "; the member is not ready; trying again in " + RETRY_MS / 1000 + " s", e);
                try {
                    Thread.sleep(RETRY_MS);
                } catch (final InterruptedException stopped) {
                    return;
                }
            }
        }
    }

    private void openAndLoad() {
        table.open(hazelcast);
        if (settings.jobs()) {
            waitingFor = "Cassandra: loading Jet's job records";
            // Jet's job and execution records (and the sink's timestamp ledger) first, whatever the initial-load setting: loading a map
            // takes seconds even when it is empty, and Jet needs them before any job can start or resume.
            for (final String map : HazelcastConfigFactory.JOB_MAPS) {
                if (!map.contains("*")) {
                    loadWhole(map);
                }
            }
        }
        if (settings.initialLoad() != PersistenceSettings.InitialLoad.EAGER) {
            return;
        }
        final List<String> maps = table.persistedMaps();
        LOG.info(() -> "state persistence: loading " + maps.size() + " persisted maps " + maps);
        for (int i = 0; i < maps.size(); i++) {
            final String map = maps.get(i);
            waitingFor = "Cassandra: loading persisted map " + map + " (" + (i + 1) + " of " + maps.size() + ")";
            final long started = System.nanoTime();
            final int size = loadWhole(map);
            LOG.info(() -> String.format("state persistence: %s loaded, %d entries (%.1f s)", map, size,
                    (System.nanoTime() - started) / 1e9));
        }
    }

    /**
     * Loads {@code map} and returns its size once every stored entry is in memory. Creating the
     * proxy starts Hazelcast's load and {@code size()} waits for it; but a partition that moves
     * while its values are still being read (a member joined or left during the load) arrives at
     * its new owner counted as loaded without them — the values still in flight on the old owner
     * are not waited for (CI of stop 56: a member ready with 2 of 3 values). So when membership
     * changed during a pass, once the partitions have settled the keys missing in memory are loaded
     * again ({@code loadAll(false)}: present entries are kept), until a pass sees no change.
     */
    private int loadWhole(final String mapName) {
        final AtomicInteger membershipChanges = new AtomicInteger();
        final UUID listener = hazelcast.getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(final MembershipEvent event) {
                membershipChanges.incrementAndGet();
            }

            @Override
            public void memberRemoved(final MembershipEvent event) {
                membershipChanges.incrementAndGet();
            }
        });
        try {
            final IMap<Object, Object> map = hazelcast.getMap(mapName);
            int seen = 0;
            int size = map.size();
            while (true) {
                awaitPartitionsSettled();
                final int changes = membershipChanges.get();
                if (changes == seen) {
                    return size;
                }
                seen = changes;
                LOG.info(() -> "state persistence: members joined or left while " + mapName
                        + " loaded (partitions moved): loading the entries it misses again");
                map.loadAll(false);
                size = map.size();
            }
        } finally {
            hazelcast.getCluster().removeMembershipListener(listener);
        }
    }

    /** Waits until no partition is migrating and every backup is in sync (a member alone is at once). */
    private void awaitPartitionsSettled() {
        while (!hazelcast.getPartitionService().isClusterSafe()) {
            if (!hazelcast.getLifecycleService().isRunning()) {
                throw new IllegalStateException("the member is stopping");
            }
            try {
                Thread.sleep(100);
            } catch (final InterruptedException stopped) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for partitions to settle", stopped);
            }
        }
    }

    /** Closes the Cassandra session; call after the member has shut down (pending writes are flushed by then). */
    @Override
    public void close() {
        loader.interrupt();
        table.close();
    }
}
