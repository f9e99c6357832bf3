package io.streamgrid.cq.feed;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryEvictedListener;
import com.hazelcast.map.listener.EntryExpiredListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;

import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The member side of change feeds: follows the subscription registry ({@link FeedProtocol#REGISTRY})
 * and runs one {@link MapFeed} per subscribed map, on one thread of its own. A subscription whose
 * lease ran out (its client died) or that was removed stops being fed.
 *
 * <p>Start one per member ({@link #start}) and close it before the member shuts down.
 */
public final class ChangeFeeds implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(ChangeFeeds.class.getName());

    private final HazelcastInstance member;
    private final ScheduledExecutorService thread;
    private final IMap<String, FeedSpec> registry;
    /** Feed thread only. */
    private final Map<String, MapFeed> feeds = new HashMap<>();
    /** Feed thread only: subscription id → its map. */
    private final Map<String, String> mapOf = new HashMap<>();
    private volatile UUID listener;

    private ChangeFeeds(final HazelcastInstance member) {
        this.member = member;
        this.registry = member.getMap(FeedProtocol.REGISTRY);
        this.thread = Executors.newSingleThreadScheduledExecutor(task -> {
            final Thread t = new Thread(task, "streamgrid-change-feeds");
            t.setDaemon(true);
            return t;
        });
    }

    /** Starts feeding the subscriptions registered now and later. */
    public static ChangeFeeds start(final HazelcastInstance member) {
        quietenShutdownOfParkedReads();
        final ChangeFeeds feeds = new ChangeFeeds(member);
        feeds.listener = feeds.registry.addEntryListener(new RegistryListener(feeds), true);
        for (final Map.Entry<String, FeedSpec> entry : feeds.registry.entrySet()) {
            feeds.onThread(() -> feeds.add(entry.getKey(), entry.getValue()));
        }
        final long markMs = FeedProtocol.MARK_EVERY.toMillis();
        feeds.thread.scheduleWithFixedDelay(() -> feeds.guarded("marks", () -> feeds.feeds.values().forEach(MapFeed::mark)),
                markMs, markMs, TimeUnit.MILLISECONDS);
        feeds.thread.scheduleWithFixedDelay(() -> feeds.guarded("ownership",
                () -> feeds.feeds.values().forEach(MapFeed::followOwnership)), 1, 1, TimeUnit.SECONDS);
        return feeds;
    }

    /**
     * When a member shuts down, Hazelcast ends each parked journal read twice (the parker and the
     * invocation registry both answer it with "instance not active") and logs a warning with a stack
     * trace for the second — two for each partition a feed reads. Harmless, and nothing an operator
     * can act on, so that one message about journal reads is dropped; every other warning stays.
     */
    private static void quietenShutdownOfParkedReads() {
        final Logger invocations = Logger.getLogger("com.hazelcast.spi.impl.operationservice.impl.Invocation");
        final java.util.logging.Filter previous = invocations.getFilter();
        if (previous instanceof ShutdownNoiseFilter) {
            return;
        }
        invocations.setFilter(new ShutdownNoiseFilter(previous));
    }

    /** Drops the double completion of parked journal reads at shutdown (see {@link #quietenShutdownOfParkedReads}). */
    private record ShutdownNoiseFilter(java.util.logging.Filter previous) implements java.util.logging.Filter {
        @Override
        public boolean isLoggable(final java.util.logging.LogRecord record) {
            final String message = record.getMessage();
            if (message != null && message.contains("on completed future") && message.contains("EventJournalReadOperation")
                    && message.contains("HazelcastInstanceNotActiveException")) {
                return false;
            }
            return previous == null || previous.isLoggable(record);
        }
    }

    private void add(final String id, final FeedSpec spec) {
        if (mapOf.containsKey(id)) {
            return; // a lease renewal
        }
        mapOf.put(id, spec.map());
        feeds.computeIfAbsent(spec.map(), map -> new MapFeed(map, member, thread)).add(id, spec.where());
    }

    private void remove(final String id) {
        final String map = mapOf.remove(id);
        final MapFeed feed = map == null ? null : feeds.get(map);
        if (feed != null) {
            feed.remove(id);
            if (feed.isEmpty()) {
                feed.close();
                feeds.remove(map);
            }
        }
    }

    private void onThread(final Runnable task) {
        try {
            thread.execute(() -> guarded("registry change", task));
        } catch (final java.util.concurrent.RejectedExecutionException closed) {
            // Closed: nothing is fed any more.
        }
    }

    /** Runs a periodic or registry task; a failure is logged and the feeds go on (clients recover by reading the journal). */
    private void guarded(final String what, final Runnable task) {
        try {
            task.run();
        } catch (final RuntimeException e) {
            if (member.getLifecycleService().isRunning()) {
                LOG.log(Level.WARNING, "change feeds: " + what + " failed", e);
            }
        }
    }

    @Override
    public void close() {
        final UUID id = listener;
        if (id != null && member.getLifecycleService().isRunning()) {
            try {
                registry.removeEntryListener(id);
            } catch (final RuntimeException e) {
                LOG.log(Level.FINE, "change feeds: registry listener not removed", e);
            }
        }
        thread.execute(() -> {
            feeds.values().forEach(MapFeed::close);
            feeds.clear();
        });
        thread.shutdown();
    }

    /** Moves registry changes onto the feed thread. */
    private record RegistryListener(ChangeFeeds feeds) implements EntryAddedListener<String, FeedSpec>,
            EntryUpdatedListener<String, FeedSpec>, EntryRemovedListener<String, FeedSpec>, EntryExpiredListener<String, FeedSpec>,
            EntryEvictedListener<String, FeedSpec> {
        @Override
        public void entryAdded(final EntryEvent<String, FeedSpec> event) {
            feeds.onThread(() -> feeds.add(event.getKey(), event.getValue()));
        }

        @Override
        public void entryUpdated(final EntryEvent<String, FeedSpec> event) {
            feeds.onThread(() -> feeds.add(event.getKey(), event.getValue()));
        }

        @Override
        public void entryRemoved(final EntryEvent<String, FeedSpec> event) {
            feeds.onThread(() -> feeds.remove(event.getKey()));
        }

        @Override
        public void entryExpired(final EntryEvent<String, FeedSpec> event) {
            feeds.onThread(() -> feeds.remove(event.getKey()));
        }

        @Override
        public void entryEvicted(final EntryEvent<String, FeedSpec> event) {
            feeds.onThread(() -> feeds.remove(event.getKey()));
        }
    }
}
