package io.streamgrid.node.impl;

import com.hazelcast.config.Config;
import com.hazelcast.core.HazelcastInstance;
import io.streamgrid.node.PersistenceSettings;

import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A member's persistence of state maps at run time: opens the member's {@link StateTable} (which
 * restores the stored Compact schemas) and, with {@code initial-load: eager}, loads every persisted
 * map — in the background, so that the member joins its cluster first and the load is spread over
 * all members that start together. Operations on a map that is still loading wait for it.
 */
public final class StatePersistence implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(StatePersistence.class.getName());
    private final StateTable table;
    private final Thread loader;

    private StatePersistence(final StateTable table, final Thread loader) {
        this.table = table;
        this.loader = loader;
    }

    /**
     * Starts persistence on a member made from {@code config} ({@link HazelcastConfigFactory#memberConfig});
     * null when persistence is off. While Cassandra is unreachable the background start keeps
     * trying (the driver logs each attempt) and persisted maps' operations wait.
     */
    public static StatePersistence start(final HazelcastInstance hazelcast, final Config config, final PersistenceSettings settings) {
        final StateTable table = (StateTable) config.getUserContext().get(StateTable.USER_CONTEXT_KEY);
        if (table == null) {
            return null;
        }
        final Thread loader = new Thread(() -> openAndLoad(hazelcast, table, settings), "streamgrid-state-load");
        loader.setDaemon(true);
        loader.start();
        return new StatePersistence(table, loader);
    }

    private static void openAndLoad(final HazelcastInstance hazelcast, final StateTable table, final PersistenceSettings settings) {
        try {
            table.open(hazelcast);
            if (settings.jobs()) {
                // Jet's job and execution records (and the sink's timestamp ledger) first, whatever the initial-load setting: loading a map
                // takes seconds even when it is empty, and Jet needs them before any job can start or resume.
                for (final String map : HazelcastConfigFactory.JOB_MAPS) {
                    if (!map.contains("*")) {
                        hazelcast.getMap(map).size();
                    }
                }
            }
            if (settings.initialLoad() != PersistenceSettings.InitialLoad.EAGER) {
                return;
            }
            final List<String> maps = table.persistedMaps();
            LOG.info(() -> "state persistence: loading " + maps.size() + " persisted maps " + maps);
            for (final String map : maps) {
                final long started = System.nanoTime();
                // Eager initial load: creating the proxy loads the map and waits for it.
                final int size = hazelcast.getMap(map).size();
                LOG.info(() -> String.format("state persistence: %s loaded, %d entries (%.1f s)", map, size,
                        (System.nanoTime() - started) / 1e9));
            }
        } catch (final RuntimeException e) {
            if (hazelcast.getLifecycleService().isRunning()) {
                LOG.log(Level.SEVERE, "state persistence: loading the persisted maps failed; each loads when first used instead", e);
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
