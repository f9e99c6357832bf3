package io.streamgrid.jobs.pipeline.impl;

import com.hazelcast.config.MapStoreConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.core.AbstractProcessor;
import com.hazelcast.jet.core.Inbox;
import com.hazelcast.jet.impl.JobRepository;
import com.hazelcast.map.IMap;
import io.streamgrid.jobs.pipeline.Replay;

import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * The sink of windowed jobs: writes {@link StateUpdate}s to their maps. Each inbox is coalesced per
 * map and key (the last update of a key wins, as it would have anyway) and written with one
 * {@code putAll} per map before the next inbox is taken, so updates of a key land in order.
 * Blocking, hence non-cooperative. At-least-once into maps whose writes are idempotent puts of
 * deterministic values: a replay after restore rewrites the same values. A {@link Replay}'s writer
 * writes each map's replay counterpart instead.
 *
 * <p>When the cluster keeps durable snapshots (Jet's snapshot maps have a map store: grid-node's
 * {@code persistence.jobs}), a snapshot also waits until the maps written since the previous one
 * that are persisted write-behind have stored those writes: a cluster that is killed whole and
 * resumes the job from that snapshot then finds in Cassandra every result written before it (the
 * job rewrites only what comes after).
 */
final class StateWriterP extends AbstractProcessor {
    private static final Object REMOVE = new Object();
    /** A name of Jet's snapshot maps ({@code __jet.snapshot.<job>.<0|1>}), to look up their config. */
    private static final String SNAPSHOT_MAP_PROBE = JobRepository.snapshotDataMapName(0, 0);
    private final Map<String, Map<Object, Object>> batchByMap = new LinkedHashMap<>();
    /** Maps written since the last snapshot that keep their writes behind in a map store. */
    private final Set<String> writtenBehind = new HashSet<>();
    private final Map<String, Boolean> behindByMap = new HashMap<>();
    private final Replay replay;
    private HazelcastInstance hazelcast;
    private boolean durableSnapshots;

    /** {@code replay}: null for the live job. */
    StateWriterP(final Replay replay) {
        this.replay = replay;
    }

    @Override
    protected void init(final Context context) {
        hazelcast = context.hazelcastInstance();
        durableSnapshots = hazelcast.getConfig().findMapConfig(SNAPSHOT_MAP_PROBE).getMapStoreConfig().isEnabled();
    }

    @Override
    public boolean isCooperative() {
        return false;
    }

    @Override
    public void process(final int ordinal, final Inbox inbox) {
        Object item;
        while ((item = inbox.poll()) != null) {
            final StateUpdate update = (StateUpdate) item;
            batchByMap.computeIfAbsent(update.map(), name -> new LinkedHashMap<>())
                    .put(update.key(), update.value() == null ? REMOVE : update.value());
        }
        flush();
    }

    private void flush() {
        for (final Map.Entry<String, Map<Object, Object>> batch : batchByMap.entrySet()) {
            final IMap<Object, Object> map = hazelcast.getMap(replay == null ? batch.getKey() : replay.mapName(batch.getKey()));
            if (durableSnapshots && isWrittenBehind(map.getName())) {
                writtenBehind.add(map.getName());
            }
            final Map<Object, Object> puts = new HashMap<>();
            for (final Map.Entry<Object, Object> entry : batch.getValue().entrySet()) {
                if (entry.getValue() == REMOVE) {
                    map.delete(entry.getKey());
                } else {
                    puts.put(entry.getKey(), entry.getValue());
                }
            }
            if (!puts.isEmpty()) {
                map.putAll(puts);
            }
        }
        batchByMap.clear();
    }

    private boolean isWrittenBehind(final String map) {
        return behindByMap.computeIfAbsent(map, name -> {
            final MapStoreConfig store = hazelcast.getConfig().findMapConfig(name).getMapStoreConfig();
            return store.isEnabled() && store.getWriteDelaySeconds() > 0;
        });
    }

    @Override
    public boolean saveToSnapshot() {
        flush(); // nothing is pending between inboxes; kept for clarity of the contract
        for (final String map : writtenBehind) {
            hazelcast.getMap(map).flush(); // returns once every partition has stored its queued writes
        }
        writtenBehind.clear();
        return true;
    }
}
