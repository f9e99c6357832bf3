package io.streamgrid.jobs.pipeline.impl;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.core.AbstractProcessor;
import com.hazelcast.jet.core.Inbox;
import com.hazelcast.map.IMap;
import io.streamgrid.jobs.pipeline.Replay;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The sink of windowed jobs: writes {@link StateUpdate}s to their maps. Each inbox is coalesced per
 * map and key (the last update of a key wins, as it would have anyway) and written with one
 * {@code putAll} per map before the next inbox is taken, so updates of a key land in order.
 * Blocking, hence non-cooperative. At-least-once into maps whose writes are idempotent puts of
 * deterministic values: a replay after restore rewrites the same values. A {@link Replay}'s writer
 * writes each map's replay counterpart instead.
 */
final class StateWriterP extends AbstractProcessor {
    private static final Object REMOVE = new Object();
    private final Map<String, Map<Object, Object>> batchByMap = new LinkedHashMap<>();
    private final Replay replay;
    private HazelcastInstance hazelcast;

    /** {@code replay}: null for the live job. */
    StateWriterP(final Replay replay) {
        this.replay = replay;
    }

    @Override
    protected void init(final Context context) {
        hazelcast = context.hazelcastInstance();
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

    @Override
    public boolean saveToSnapshot() {
        flush(); // nothing is pending between inboxes; kept for clarity of the contract
        return true;
    }
}
