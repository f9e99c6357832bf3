package io.streamgrid.client.impl;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.journal.EventJournalReader;
import com.hazelcast.map.EventJournalMapEvent;
import com.hazelcast.map.IMap;
import io.streamgrid.client.Delta;
import io.streamgrid.client.DeltaListener;
import io.streamgrid.client.Subscription;
import io.streamgrid.client.SubscriptionOptions;
import io.streamgrid.cq.ChangeFilter;
import io.streamgrid.cq.Where;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A continuous query over a map's event journal.
 *
 * <p>Why the journal: it is partitioned, sequenced, backed up like the map and migrates with its
 * partitions, so a member crash or a migration loses nothing a reader has not yet read; and reads
 * take a filter that runs on the member ({@link ChangeFilter}), so only matching changes cross the
 * network. The reads are shared by the client's subscriptions of the map ({@link MapFeed}: one
 * chain of asynchronous reads per partition, no thread each, filtered by the union of their
 * predicates, woken by a change listener, never parked on a member), and each batch is offered
 * to this subscription's bounded queue, which keeps
 * what its own predicate passes; one delivery thread applies changes to the subscription's mirror
 * of the result and calls the listener, so deltas of a key arrive in journal (= write) order.
 *
 * <p>Recovery: a read that finds events overwritten (the journal is a ring), or fails in a way a
 * retry will not fix, makes that partition resynchronise: the delivery thread re-reads the map's
 * matching entries, delivers the difference to the mirror as deltas, reports RESYNC and restarts
 * the partition's reader. A full queue (slow listener) is back-pressure, not loss: a read chain
 * that finds no room for another batch stops and remembers the sequence it would read next; as the
 * listener makes room, the delivery thread lets stopped chains go on, only as many at a time as
 * the room holds batches, so what the members read for a slow listener is what it will take. (A
 * full queue detaches the subscription from the shared read of that partition — the others read on
 * — and it reads on its own until it has caught up, then attaches again.) The
 * members keep nothing for a stopped chain (the journal already holds the changes), so a slow
 * listener costs the writers little; only a chain that stopped so long that the journal overwrote
 * its position resynchronises, and only its partition. Transient failures (member gone, migration)
 * are retried at the same sequence.
 *
 * <p>Conflated ({@link SubscriptionOptions.Delivery#CONFLATED}): the shared read's changes go to
 * {@link LatestChanges} instead of the queue — a key's waiting change replaced by its newer one —
 * and the delivery thread drains them all at once, so nothing ever stops the reads and a slow
 * listener gets the latest value of each key; the queue then carries only resyncs and wake-ups.
 *
 * <p>Failures: a listener that throws is logged and counted, and the subscription goes on (the
 * mirror was updated before the call, so nothing is lost or repeated by it). A resync that fails
 * (the map query while a member leaves, say) is tried again with backoff, unless the failure says
 * the predicate does not fit the map's values (a field they do not have). Only when the client is
 * shut down, or something else fails on the delivery thread, does the subscription end: FAILED
 * with the cause, {@link DeltaListener#onFailure} called once — never silently.
 *
 * <p>Catch-up without going back: the snapshot query runs between two readings of each partition's
 * journal tail, and the changes between those tails are reconciled with the snapshot per key — only
 * those after the snapshot's state are delivered — so a listener never sees a key's value go back.
 */
final class ContinuousSubscription implements Subscription {
    private static final Logger LOG = Logger.getLogger(ContinuousSubscription.class.getName());
    /** Most changes one journal read returns (shared reads too: {@link MapFeed}). */
    static final int MAX_BATCH = 512;

    private final HazelcastInstance client;
    private final MapFeed feed;
    private final IMap<Object, Object> map;
    private final EventJournalReader<EventJournalMapEvent<Object, Object>> journal;
    private final Where where;
    private final ChangeFilter filter;
    private final DeltaListener listener;
    private final ClientPartitions partitions;
    private final ArrayBlockingQueue<Object> queue;
    private final AtomicIntegerArray generation;
    /**
     * The subscription's result: what the listener has been told, per key, and the folding of
     * changes into it. Written by the delivery thread only; a {@link MirrorView} reads its map from
     * any thread (it is then a ConcurrentHashMap).
     */
    private final DeltaMirror mirror;
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong resyncs = new AtomicLong();
    private final AtomicLong listenerErrors = new AtomicLong();
    private volatile State state = State.RUNNING;
    private volatile Throwable failure;
    /** What made handing this subscription a shared batch fail (its predicate on a value, say); ends it. */
    private volatile RuntimeException feedFailure;
    /** Set when the client reconnected to another cluster: every partition resynchronises (its journal began again). */
    private final AtomicBoolean clusterReplaced = new AtomicBoolean();
    private final CompletableFuture<Void> started = new CompletableFuture<>();
    private final Thread delivery;
    private volatile boolean closed;
    /** Its own reads of partitions, after a full queue took it off the shared read, and their back-pressure. */
    private final ReadChains chains;
    /** This subscription's counters in the cluster's report map. */
    private final SubscriptionReporter reporter;

    /** Conflated: the latest change per key, or null when every change is delivered. */
    private final LatestChanges latest;
    /** Conflated: wakes the delivery thread when changes wait in {@link #latest}. */
    private static final Object WAKE = new Object();

    /** Asks the delivery thread to resynchronise a partition. */
    record Resync(int partition, String reason) {
    }

    /**
     * @param mirror where the subscription keeps its result, empty: a HashMap when only the delivery
     *               thread reads it, a ConcurrentHashMap when other threads read it too (a view)
     */
    ContinuousSubscription(final HazelcastInstance client, final MapFeed feed, final String mapName, final Where where,
                           final DeltaListener listener, final SubscriptionOptions options, final Map<Object, Object> mirror) {
        this.client = client;
        this.feed = feed;
        this.map = client.getMap(mapName);
        this.journal = feed.journal();
        this.where = where;
        this.filter = new ChangeFilter(where);
        this.listener = listener;
        this.partitions = new ClientPartitions(client);
        this.queue = new ArrayBlockingQueue<>(options.bufferCapacity());
        this.generation = new AtomicIntegerArray(partitions.count());
        this.mirror = new DeltaMirror(mirror, where, partitions.count());
        this.chains = new ReadChains(this, mapName, journal, filter, queue, Math.min(MAX_BATCH, options.bufferCapacity() / 2), generation);
        this.reporter = new SubscriptionReporter(client, mapName, where.text());
        this.latest = options.delivery() == SubscriptionOptions.Delivery.CONFLATED ? new LatestChanges() : null;
        this.delivery = new Thread(this::deliverLoop, "streamgrid-subscription-" + mapName);
        this.delivery.setDaemon(true);
    }

    /** Starts and returns once the snapshot was delivered; rethrows what made the start fail. */
    ContinuousSubscription start() {
        delivery.start();
        try {
            started.get(2, TimeUnit.MINUTES);
        } catch (final Exception e) {
            close();
            throw new IllegalStateException("subscription to " + map.getName() + " did not start: " + e.getMessage(), e);
        }
        return this;
    }

    @Override
    public long delivered() {
        return delivered.get();
    }

    @Override
    public long resyncs() {
        return resyncs.get();
    }

    @Override
    public long overflows() {
        return chains.overflows();
    }

    @Override
    public long listenerErrors() {
        return listenerErrors.get();
    }

    @Override
    public long conflated() {
        return latest == null ? 0 : latest.replaced();
    }

    @Override
    public int queued() {
        return latest == null ? queue.size() : latest.size();
    }

    @Override
    public State state() {
        return state;
    }

    @Override
    public Throwable failure() {
        return failure;
    }

    @Override
    public void close() {
        closed = true;
        if (state == State.RUNNING) {
            state = State.CLOSED;
        }
        delivery.interrupt();
    }

    // ---- delivery thread ----

    private void deliverLoop() {
        try {
            final long[] tails = catchUp(partitions.all(), true, "start");
            started.complete(null);
            feed.join(this, tails);
            while (!closed) {
                if (feedFailure != null) {
                    throw feedFailure;
                }
                reporter.report(state.name(), delivered.get(), resyncs.get(), chains.overflows(), listenerErrors.get(), queued());
                if (clusterReplaced.getAndSet(false)) {
                    resyncUntilDone(partitions.all(), "the client reconnected to another cluster (a restart of the whole cluster): "
                            + "its journals began again");
                }
                chains.resumeStopped();
                final Object item = queue.poll(100, TimeUnit.MILLISECONDS);
                if (item instanceof Delta delta) {
                    apply(delta);
                } else if (item instanceof Resync resync) {
                    resyncUntilDone(Set.of(resync.partition()), resync.reason());
                } else if (item == null && !client.getLifecycleService().isRunning()) {
                    throw new IllegalStateException("the Hazelcast client of this subscription was shut down");
                }
                if (latest != null) {
                    for (final Delta delta : latest.drain()) {
                        apply(delta); // the latest change of each key, in journal order per partition
                    }
                }
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (final RuntimeException | Error e) {
            if (!started.isDone()) {
                fail(e); // the listener hears why it gets nothing; subscribe() throws it too
                started.completeExceptionally(e);
            } else if (!closed) {
                fail(e);
            }
        } finally {
            feed.leave(this);
        }
        reporter.remove();
    }

    /** The subscription cannot go on: FAILED with {@code cause}, logged, and the listener told once. */
    private void fail(final Throwable cause) {
        failure = cause;
        LOG.log(Level.SEVERE, "subscription to " + map.getName() + " failed and stopped: " + cause, cause);
        try {
            listener.onFailure(cause);
        } catch (final RuntimeException e) {
            LOG.log(Level.WARNING, "subscription to " + map.getName() + ": the listener's onFailure threw", e);
        }
        state = State.FAILED; // after the listener was told: whoever sees FAILED knows the listener knows
    }

    /**
     * Resynchronises {@code parts}, trying again with backoff (100 ms doubling to 5 s) while it
     * fails — a member leaving can fail the map query — until it succeeds or the subscription is
     * closed. A failure that trying again cannot fix (the client shut down, a predicate that does not
     * fit the values) ends the subscription.
     */
    private void resyncUntilDone(final Set<Integer> parts, final String reason) throws InterruptedException {
        long backoffMs = 100;
        while (!closed) {
            try {
                resync(parts, reason);
                return;
            } catch (final RuntimeException e) {
                if (!client.getLifecycleService().isRunning() || ReadFailures.isPermanent(e)) {
                    throw e;
                }
                LOG.log(Level.WARNING, "subscription to " + map.getName() + ": resynchronising " + parts.size()
                        + " partition(s) failed (" + e + "); trying again in " + backoffMs + " ms");
                Thread.sleep(backoffMs);
                backoffMs = Math.min(5_000, backoffMs * 2);
            }
        }
    }

    /** Counts and logs an exception of the listener (the first ten, then every thousandth); the subscription goes on. */
    private void listenerFailed(final RuntimeException e, final String call) {
        final long errors = listenerErrors.incrementAndGet();
        if (errors <= 10 || errors % 1_000 == 0) {
            LOG.log(Level.WARNING, "subscription to " + map.getName() + ": the listener threw in " + call + " (error " + errors
                    + " so far); the subscription goes on", e);
        }
    }

    private void resync(final Set<Integer> parts, final String reason) {
        for (final int p : parts) {
            generation.incrementAndGet(p); // stops the partition's current read chain
            feed.detach(this, p); // and the shared read's hand-outs: it attaches again after the new tail
        }
        final long[] tails = catchUp(parts, false, reason);
        resyncs.incrementAndGet();
        try {
            listener.onResync(parts, reason);
        } catch (final RuntimeException e) {
            listenerFailed(e, "onResync");
        }
        for (final int p : parts) {
            feed.attach(this, p, tails[p]);
        }
    }

    /**
     * Brings the mirror (and the listener) to the map's current state for {@code parts}; returns the
     * journal tail per partition to continue reading after.
     */
    private long[] catchUp(final Set<Integer> parts, final boolean initial, final String reason) {
        final PartitionSnapshot snapshot = PartitionSnapshot.take(map, journal, partitions, where, filter, MAX_BATCH, parts);
        final Map<Object, Object> current = snapshot.current();
        mirror.catchUp(parts, current, snapshot.window(), snapshot.before(), snapshot.after(), partitions::of, initial, () -> {
            try {
                listener.onSnapshot(Map.copyOf(current));
            } catch (final RuntimeException e) {
                // Unlike a delta, the snapshot is the base of everything after it: without it the
                // listener's state is wrong for good, so the subscription does not start.
                listenerErrors.incrementAndGet();
                throw new IllegalStateException("the listener's onSnapshot threw " + e, e);
            }
        }, this::told);
        if (!initial) {
            LOG.info(() -> "subscription to " + map.getName() + " resynchronised " + parts.size() + " partition(s): " + reason);
        }
        return snapshot.after();
    }

    /** Folds a delta into the mirror and tells the listener what changed for it, if anything did. */
    private void apply(final Delta delta) {
        final Delta changed = mirror.apply(delta);
        if (changed != null) {
            told(changed);
        }
    }

    /** Tells the listener a delta the mirror now holds, and counts it. */
    private void told(final Delta delta) {
        tell(delta);
        delivered.incrementAndGet();
    }

    private void tell(final Delta delta) {
        try {
            listener.onDelta(delta);
        } catch (final RuntimeException e) {
            listenerFailed(e, "onDelta (" + delta.kind() + " of key " + delta.key() + ")");
        }
    }

    /** The delta a journal change makes for this subscription; null when the key was and is outside its predicate. */
    Delta deltaOf(final EventJournalMapEvent<Object, Object> event, final int partition, final long sequence) {
        return mirror.toDelta(new DeltaMirror.Change(event.getKey(), event.getOldValue(), event.getNewValue(), partition, sequence));
    }

    // ---- the shared read's hand-outs (client executor threads, under the feed's partition lock) ----

    Where where() {
        return where;
    }

    /**
     * Offers a change of the shared read: queued when this predicate passes it. Returns false when
     * there was no room — this subscription then reads {@code partition} on its own from
     * {@code sequence} once the listener made room — or when the change cannot be judged (the
     * subscription then ends); the feed detaches it from the partition either way.
     */
    boolean feedChange(final int partition, final EventJournalMapEvent<Object, Object> event, final long sequence) {
        return feedChange(partition, event.getKey(), event.getOldValue(), event.getNewValue(), sequence);
    }

    /** {@link #feedChange(int, EventJournalMapEvent, long)} for a change a member pushed: its key, values before and after. */
    boolean feedChange(final int partition, final Object key, final Object oldValue, final Object newValue, final long sequence) {
        final Delta delta;
        try {
            delta = mirror.toDelta(new DeltaMirror.Change(key, oldValue, newValue, partition, sequence));
        } catch (final RuntimeException e) {
            if (feedFailure == null) {
                feedFailure = e;
            }
            return false;
        }
        if (delta == null) {
            return true;
        }
        if (latest != null) {
            if (latest.offer(delta)) {
                queue.offer(WAKE); // when the queue is full of resyncs, the delivery thread drains within its 100 ms poll
            }
            return true;
        }
        if (queue.offer(delta)) {
            return true;
        }
        chains.stop(partition, generation.get(partition), sequence);
        return false;
    }

    /**
     * The shared read of {@code partition} found changes overwritten at {@code sequence} or failed,
     * and detached this subscription from it: asks for a resync (which attaches it again), or, with
     * the queue full, stops at {@code sequence} and finds the same trouble when it reads on.
     */
    void feedLost(final int partition, final long sequence, final String reason) {
        chains.requestResync(partition, generation.get(partition), sequence, reason);
    }

    /**
     * The client is connected to another cluster than before (every member was replaced within the
     * reconnect window): positions in the old journals mean nothing in the new ones, so the delivery
     * thread resynchronises every partition.
     */
    void clusterReplaced() {
        clusterReplaced.set(true);
    }

    // ---- for its own read chains ----

    /** Whether the subscription was closed or its client shut down: its reads end. */
    boolean ended() {
        return closed || !client.getLifecycleService().isRunning();
    }

    boolean closed() {
        return closed;
    }


    /** A chain caught up with the journal after {@code sequence}: back to the shared read. */
    void backToSharedRead(final int partition, final long sequence) {
        feed.attach(this, partition, sequence);
    }
}
