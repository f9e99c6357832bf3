package io.streamgrid.client.impl;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.query.Predicate;
import com.hazelcast.query.Predicates;
import io.streamgrid.cq.ChangeFilter;
import io.streamgrid.cq.Where;

import java.util.List;
import java.util.Objects;
import java.util.UUID;
import java.util.function.IntConsumer;
import java.util.function.Supplier;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A {@link MapFeed}'s doorbell: one key-only entry listener on the map, filtered on the members by
 * the union of the feed's predicates, whose events say "this partition changed" so that a resting
 * read chain reads it. Listener events are not durable and an update that takes an entry out of
 * every predicate does not ring (Hazelcast filters updates by the new value): the feed's sweep
 * covers what the doorbell misses.
 */
final class FeedDoorbell {
    private static final Logger LOG = Logger.getLogger(FeedDoorbell.class.getName());

    private final HazelcastInstance client;
    private final IMap<Object, Object> map;
    /** What a ring of one partition does. */
    private final IntConsumer ring;
    /** What a ring of every partition does (a map cleared or evicted). */
    private final Runnable ringAll;
    /** The registration and the union it was registered for (guarded by this); null: none. */
    private UUID registration;
    private ChangeFilter registeredFor;

    FeedDoorbell(final HazelcastInstance client, final IMap<Object, Object> map, final IntConsumer ring, final Runnable ringAll) {
        this.client = client;
        this.map = map;
        this.ring = ring;
        this.ringAll = ringAll;
    }

    /**
     * Registers the doorbell for the union {@code current} gives now (read under this doorbell's lock,
     * so the newest union wins), the new registration before the old one goes, or removes it when
     * the union is null; returns whether the registration changed (then the
     * caller reads every partition for what changed before it was in place). A registration that
     * fails is logged and left as it was: the caller tries again at its next sweep, which reads every
     * partition anyway.
     */
    synchronized boolean update(final Supplier<ChangeFilter> current) {
        final ChangeFilter wanted = current.get();
        if (Objects.equals(wanted, registeredFor) || !client.getLifecycleService().isRunning()) {
            return false;
        }
        try {
            final UUID old = registration;
            registration = wanted == null ? null : map.addEntryListener(new Listener(), predicateOf(wanted), false);
            registeredFor = wanted;
            if (old != null) {
                map.removeEntryListener(old);
            }
            return true;
        } catch (final RuntimeException e) {
            LOG.log(Level.WARNING, "continuous queries of " + map.getName() + ": the change listener could not be "
                    + (wanted == null ? "removed" : "registered") + " (" + e + "); every partition is read every "
                    + MapFeed.SWEEP_MS + " ms until it is", e);
            return false;
        }
    }

    /** The union as a query predicate: the doorbell rings for a change whose new value (old, for a removal) one of the predicates passes. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Predicate<Object, Object> predicateOf(final ChangeFilter filter) {
        final List<Where> wheres = filter.wheres();
        return wheres.size() == 1 ? wheres.get(0) : Predicates.or(wheres.toArray(new Predicate[0]));
    }

    /** Each change event names only its key, whose partition is read. */
    private final class Listener extends AnyChangeListener {
        @Override
        protected void changed(final EntryEvent<Object, Object> event) {
            ring.accept(client.getPartitionService().getPartition(event.getKey()).getPartitionId());
        }

        @Override
        protected void allChanged() {
            ringAll.run();
        }
    }
}
