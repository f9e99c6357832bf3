package io.streamgrid.client.impl;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.journal.EventJournalInitialSubscriberState;
import com.hazelcast.internal.journal.EventJournalReader;
import com.hazelcast.map.EventJournalMapEvent;
import com.hazelcast.map.IMap;
import com.hazelcast.query.Predicate;
import com.hazelcast.query.Predicates;
import com.hazelcast.ringbuffer.ReadResultSet;
import io.streamgrid.client.Delta;
import io.streamgrid.client.DeltaListener;
import io.streamgrid.client.Subscription;
import io.streamgrid.client.SubscriptionReport;
import io.streamgrid.client.SubscriptionOptions;
import io.streamgrid.cq.ChangeFilter;
import io.streamgrid.cq.Where;
import io.streamgrid.cq.WhereErrors;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
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
    private static final Object ABSENT = new Object();

    private final HazelcastInstance client;
    private final MapFeed feed;
    private final IMap<Object, Object> map;
    private final EventJournalReader<EventJournalMapEvent<Object, Object>> journal;
    private final Where where;
    private final ChangeFilter filter;
    private final DeltaListener listener;
    private final int partitions;
    private final ArrayBlockingQueue<Object> queue;
    private final AtomicIntegerArray generation;
    /**
     * The subscription's result: what the listener has been told, per key. Written by the delivery
     * thread only; a {@link MirrorView} reads it from any thread (it is then a ConcurrentHashMap).
     */
    private final Map<Object, Object> mirror;
    /** Per partition, a key in it (delivery thread only; made on the first partial resync). */
    private Object[] keyOfPartition;
    /** Per partition, the highest journal sequence the mirror reflects (delivery thread only). */
    private final long[] appliedThrough;
    /**
     * Most changes one journal read returns; also the room a chain needs in the queue to read on
     * (half the queue at most, so that a small queue still lets chains take turns).
     */
    private final int readLimit;
    /** Read chains stopped for want of room in the queue, each with the sequence to go on from (FIFO: they take turns). */
    private final ConcurrentLinkedQueue<StoppedChain> stopped = new ConcurrentLinkedQueue<>();
    /** Reads of chains let go on whose batches have not come back yet: room they may still take. */
    private final AtomicInteger resumedReads = new AtomicInteger();
    /** Set from the first chain stopping until every stopped chain has gone on: one overflow. */
    private final AtomicBoolean behind = new AtomicBoolean();
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong resyncs = new AtomicLong();
    private final AtomicLong overflows = new AtomicLong();
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
    /** This subscription's entry in {@link SubscriptionReport#MAP}, and when it last wrote it. */
    private final String reportId = java.util.UUID.randomUUID().toString();
    private final IMap<String, SubscriptionReport> reports;
    private long lastReportNanos;

    /** Asks the delivery thread to resynchronise a partition. */
    private record Resync(int partition, String reason) {
    }

    /** A read chain that stopped at a full queue: it goes on at {@code sequence} when the listener caught up. */
    private record StoppedChain(int partition, int chain, long sequence) {
    }

    /**
     * @param mirror where the subscription keeps its result, empty: a HashMap when only the delivery
     *               thread reads it, a ConcurrentHashMap when other threads read it too (a view)
     */
    ContinuousSubscription(final HazelcastInstance client, final MapFeed feed, final String mapName, final Where where,
                           final DeltaListener listener, final SubscriptionOptions options, final Map<Object, Object> mirror) {
        if (!mirror.isEmpty()) {
            throw new IllegalArgumentException("bug: a subscription starts with an empty mirror");
        }
        this.mirror = mirror;
        this.client = client;
        this.feed = feed;
        this.map = client.getMap(mapName);
        this.journal = feed.journal();
        this.where = where;
        this.filter = new ChangeFilter(where);
        this.listener = listener;
        this.partitions = client.getPartitionService().getPartitions().size();
        this.queue = new ArrayBlockingQueue<>(options.bufferCapacity());
        this.readLimit = Math.min(MAX_BATCH, options.bufferCapacity() / 2);
        this.generation = new AtomicIntegerArray(partitions);
        this.appliedThrough = new long[partitions];
        this.reports = client.getMap(SubscriptionReport.MAP);
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
        return overflows.get();
    }

    @Override
    public long listenerErrors() {
        return listenerErrors.get();
    }

    @Override
    public int queued() {
        return queue.size();
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
            final long[] tails = catchUp(allPartitions(), true, "start");
            started.complete(null);
            feed.join(this, tails);
            while (!closed) {
                if (feedFailure != null) {
                    throw feedFailure;
                }
                report();
                if (clusterReplaced.getAndSet(false)) {
                    resyncUntilDone(allPartitions(), "the client reconnected to another cluster (a restart of the whole cluster): "
                            + "its journals began again");
                }
                resumeStoppedChains();
                final Object item = queue.poll(100, TimeUnit.MILLISECONDS);
                if (item instanceof Delta delta) {
                    apply(delta);
                } else if (item instanceof Resync resync) {
                    resyncUntilDone(Set.of(resync.partition()), resync.reason());
                } else if (item == null && !client.getLifecycleService().isRunning()) {
                    throw new IllegalStateException("the Hazelcast client of this subscription was shut down");
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
        unreport();
    }

    /**
     * Every {@link SubscriptionReport#EVERY_MS}: the counters into the cluster's report map,
     * asynchronously (the delivery thread does not wait; a lost report is replaced by the next).
     */
    private void report() {
        final long now = System.nanoTime();
        if (now - lastReportNanos < TimeUnit.MILLISECONDS.toNanos(SubscriptionReport.EVERY_MS)) {
            return;
        }
        lastReportNanos = now;
        try {
            reports.setAsync(reportId, new SubscriptionReport(reportId, client.getName(), map.getName(), where.text(), state.name(),
                    delivered.get(), resyncs.get(), overflows.get(), listenerErrors.get(), queue.size(), System.currentTimeMillis()),
                    SubscriptionReport.TTL_SECONDS, TimeUnit.SECONDS);
        } catch (final RuntimeException e) {
            LOG.log(Level.FINE, "subscription to " + map.getName() + ": report not written", e);
        }
    }

    /** Removes the report when the subscription ends (its TTL would remove it anyway). */
    private void unreport() {
        if (client.getLifecycleService().isRunning()) {
            try {
                reports.removeAsync(reportId);
            } catch (final RuntimeException e) {
                LOG.log(Level.FINE, "subscription to " + map.getName() + ": report not removed", e);
            }
        }
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
                if (!client.getLifecycleService().isRunning() || isPermanent(e)) {
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
        final long[] before = tails(parts);
        final Map<Object, Object> current = new HashMap<>();
        for (final Map.Entry<Object, Object> entry : map.entrySet(queryOf(parts))) {
            if (parts.contains(partitionOf(entry.getKey()))) {
                current.put(entry.getKey(), entry.getValue());
            }
        }
        final long[] after = tails(parts);
        // Changes between the two tails: keep, per key, only those after the snapshot's state.
        final List<EventJournalMapEvent<Object, Object>> window = new ArrayList<>();
        final List<Integer> windowPartitions = new ArrayList<>();
        final List<Long> windowSequences = new ArrayList<>();
        for (final int p : parts) {
            long seq = before[p] + 1;
            while (seq <= after[p]) {
                final ReadResultSet<EventJournalMapEvent<Object, Object>> batch = join(
                        journal.readFromEventJournal(seq, 0, MAX_BATCH, p, filter, null));
                for (int i = 0; i < batch.size(); i++) {
                    if (batch.getSequence(i) <= after[p]) {
                        window.add(batch.get(i));
                        windowPartitions.add(p);
                        windowSequences.add(batch.getSequence(i));
                    }
                }
                if (batch.getNextSequenceToReadFrom() <= seq) {
                    break;
                }
                seq = batch.getNextSequenceToReadFrom();
            }
        }
        final Map<Object, Integer> cut = new HashMap<>();
        for (int i = 0; i < window.size(); i++) {
            final EventJournalMapEvent<Object, Object> event = window.get(i);
            final Object state = where.test(event.getNewValue()) ? event.getNewValue() : ABSENT;
            if (Objects.equals(state, current.getOrDefault(event.getKey(), ABSENT))) {
                cut.put(event.getKey(), i);
            }
        }
        if (initial) {
            mirror.putAll(current);
            try {
                listener.onSnapshot(Map.copyOf(current));
            } catch (final RuntimeException e) {
                // Unlike a delta, the snapshot is the base of everything after it: without it the
                // listener's state is wrong for good, so the subscription does not start.
                listenerErrors.incrementAndGet();
                throw new IllegalStateException("the listener's onSnapshot threw " + e, e);
            }
        } else {
            final List<Object> gone = new ArrayList<>();
            for (final Map.Entry<Object, Object> known : mirror.entrySet()) {
                if (parts.contains(partitionOf(known.getKey())) && !current.containsKey(known.getKey())) {
                    gone.add(known.getKey());
                }
            }
            for (final Object key : gone) {
                apply(new Delta(Delta.Kind.LEAVE, key, mirror.get(key), partitionOf(key), -1));
            }
            for (final Map.Entry<Object, Object> entry : current.entrySet()) {
                final boolean known = mirror.containsKey(entry.getKey());
                apply(new Delta(known ? Delta.Kind.UPDATE : Delta.Kind.ENTER, entry.getKey(), entry.getValue(),
                        partitionOf(entry.getKey()), -1));
            }
        }
        for (final int p : parts) {
            // The window's changes follow the snapshot's tail, whatever was applied before: a journal
            // that began again (a new cluster) numbers them below the old position.
            appliedThrough[p] = before[p];
        }
        for (int i = 0; i < window.size(); i++) {
            final EventJournalMapEvent<Object, Object> event = window.get(i);
            if (i > cut.getOrDefault(event.getKey(), -1)) {
                final Delta delta = toDelta(event, windowPartitions.get(i), windowSequences.get(i));
                if (delta != null) {
                    apply(delta);
                }
            }
        }
        for (final int p : parts) {
            appliedThrough[p] = after[p];
        }
        if (!initial) {
            LOG.info(() -> "subscription to " + map.getName() + " resynchronised " + parts.size() + " partition(s): " + reason);
        }
        return after;
    }

    /**
     * Applies a delta to the mirror and tells the listener. Drops no-ops (replays of known state)
     * and journal deltas the mirror already reflects — a read chain stopped by a resync may still
     * have had a batch in flight.
     */
    private void apply(final Delta delta) {
        if (delta.sequence() >= 0) {
            if (delta.sequence() <= appliedThrough[delta.partition()]) {
                return;
            }
            appliedThrough[delta.partition()] = delta.sequence();
        }
        final Object previous = mirror.get(delta.key());
        if (delta.kind() == Delta.Kind.LEAVE) {
            if (previous == null) {
                return;
            }
            mirror.remove(delta.key());
            tell(new Delta(Delta.Kind.LEAVE, delta.key(), previous, delta.partition(), delta.sequence()));
        } else {
            if (Objects.equals(previous, delta.value())) {
                return;
            }
            mirror.put(delta.key(), delta.value());
            final Delta.Kind kind = previous == null ? Delta.Kind.ENTER : Delta.Kind.UPDATE;
            tell(kind == delta.kind() ? delta : new Delta(kind, delta.key(), delta.value(), delta.partition(), delta.sequence()));
        }
        delivered.incrementAndGet();
    }

    private void tell(final Delta delta) {
        try {
            listener.onDelta(delta);
        } catch (final RuntimeException e) {
            listenerFailed(e, "onDelta (" + delta.kind() + " of key " + delta.key() + ")");
        }
    }

    private Delta toDelta(final EventJournalMapEvent<Object, Object> event, final int partition, final long sequence) {
        final boolean wasIn = where.test(event.getOldValue());
        final boolean isIn = where.test(event.getNewValue());
        if (isIn) {
            return new Delta(wasIn ? Delta.Kind.UPDATE : Delta.Kind.ENTER, event.getKey(), event.getNewValue(), partition, sequence);
        }
        return wasIn ? new Delta(Delta.Kind.LEAVE, event.getKey(), event.getOldValue(), partition, sequence) : null;
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
        final Delta delta;
        try {
            delta = toDelta(event, partition, sequence);
        } catch (final RuntimeException e) {
            if (feedFailure == null) {
                feedFailure = e;
            }
            return false;
        }
        if (delta == null || queue.offer(delta)) {
            return true;
        }
        stop(partition, generation.get(partition), sequence);
        return false;
    }

    /**
     * The shared read of {@code partition} found changes overwritten at {@code sequence} or failed,
     * and detached this subscription from it: asks for a resync (which attaches it again), or, with
     * the queue full, stops at {@code sequence} and finds the same trouble when it reads on.
     */
    void feedLost(final int partition, final long sequence, final String reason) {
        requestResync(partition, generation.get(partition), sequence, reason);
    }

    /**
     * The client is connected to another cluster than before (every member was replaced within the
     * reconnect window): positions in the old journals mean nothing in the new ones, so the delivery
     * thread resynchronises every partition.
     */
    void clusterReplaced() {
        clusterReplaced.set(true);
    }

    // ---- its own read chains, after a full queue (client executor threads) ----

    private void read(final int partition, final int chain, final long sequence) {
        read(partition, chain, sequence, false);
    }

    /**
     * Reads what the journal holds from {@code sequence} on, without waiting for more (no read of a
     * subscription parks on a member: {@link MapFeed} says why); caught up, the chain attaches to
     * the shared read again.
     *
     * @param resumed whether this read lets a stopped chain go on: counted in {@link #resumedReads}
     *                until it returns
     */
    private void read(final int partition, final int chain, final long sequence, final boolean resumed) {
        if (closed || generation.get(partition) != chain) {
            if (resumed) {
                resumedReads.decrementAndGet();
            }
            return;
        }
        final CompletionStage<ReadResultSet<EventJournalMapEvent<Object, Object>>> reading;
        try {
            reading = journal.readFromEventJournal(sequence, 0, readLimit, partition, filter, null);
        } catch (final RuntimeException e) {
            if (resumed) {
                resumedReads.decrementAndGet();
            }
            onReadFailure(partition, chain, sequence, e);
            return;
        }
        reading.whenComplete((batch, error) -> {
            if (resumed) {
                resumedReads.decrementAndGet();
            }
            if (error != null) {
                onReadFailure(partition, chain, sequence, error);
                return;
            }
            if (generation.get(partition) != chain) {
                return;
            }
            final String wentBack = MapFeed.wentBack(partition, sequence, batch);
            if (wentBack != null) {
                requestResync(partition, chain, sequence, wentBack);
                return;
            }
            // An empty read reports 0 as the next sequence (Hazelcast never sets it): stay where we are.
            final long next = batch.readCount() == 0 ? sequence : batch.getNextSequenceToReadFrom();
            final long lost = next - batch.readCount() - sequence;
            if (lost > 0) {
                requestResync(partition, chain, sequence, lost + " journal events overwritten before they were read");
                return;
            }
            for (int i = 0; i < batch.size(); i++) {
                final Delta delta = toDelta(batch.get(i), partition, batch.getSequence(i));
                if (delta != null && !queue.offer(delta)) {
                    stop(partition, chain, batch.getSequence(i)); // chains that read together can overfill the room
                    return;
                }
            }
            // No room for another batch: wait for the listener instead of reading one change at a
            // time at its pace (a read per delta costs the members as much as a fast subscriber).
            if (queue.remainingCapacity() < readLimit) {
                stop(partition, chain, next);
                return;
            }
            if (batch.readCount() < readLimit) {
                feed.attach(this, partition, next - 1); // caught up with the journal: back to the shared read
                return;
            }
            read(partition, chain, next);
        });
    }

    private void onReadFailure(final int partition, final int chain, final long sequence, final Throwable error) {
        if (closed || !client.getLifecycleService().isRunning()) {
            return;
        }
        final Throwable cause = causeOf(error);
        if (isTransient(cause)) {
            CompletableFuture.delayedExecutor(100, TimeUnit.MILLISECONDS).execute(() -> read(partition, chain, sequence));
        } else {
            requestResync(partition, chain, sequence, "journal read failed: " + cause);
        }
    }

    /** Whether trying again cannot help: the predicate itself is wrong for the map's values ({@link WhereErrors}). */
    private static boolean isPermanent(final Throwable error) {
        return WhereErrors.find(error) != null;
    }

    /** What made a journal read fail: the cause a {@link java.util.concurrent.CompletionException} wraps, else the error itself. */
    static Throwable causeOf(final Throwable error) {
        return error instanceof java.util.concurrent.CompletionException && error.getCause() != null ? error.getCause() : error;
    }

    static boolean isTransient(final Throwable cause) {
        final String name = cause.getClass().getSimpleName();
        return cause instanceof com.hazelcast.spi.exception.RetryableException
                || cause instanceof com.hazelcast.core.OperationTimeoutException
                || cause instanceof java.io.IOException
                || name.contains("TargetDisconnected") || name.contains("MemberLeft") || name.contains("TargetNotMember");
    }

    /** Asks for a resync; with the queue full, the chain stops at {@code sequence} and finds the same trouble when it goes on. */
    private void requestResync(final int partition, final int chain, final long sequence, final String reason) {
        if (!queue.offer(new Resync(partition, reason))) {
            stop(partition, chain, sequence);
        }
    }

    /** No room for another batch: this chain stops at {@code sequence} and waits for its turn. */
    private void stop(final int partition, final int chain, final long sequence) {
        stopped.add(new StoppedChain(partition, chain, sequence));
        if (behind.compareAndSet(false, true)) {
            final long times = overflows.incrementAndGet();
            if (times <= 10 || times % 1_000 == 0) {
                LOG.info(() -> "subscription to " + map.getName() + ": the listener is " + queue.size()
                        + " deltas behind; reading waits for it (overflow " + times + " so far)");
            }
        }
    }

    /**
     * Delivery thread: lets stopped chains go on, in the order they stopped, while the queue has
     * room for their batches beside those of chains already let go on. A chain that finds the room
     * taken when its batch comes back stops again at the back of the line.
     */
    private void resumeStoppedChains() {
        while (!stopped.isEmpty() && queue.remainingCapacity() - (long) resumedReads.get() * readLimit >= readLimit) {
            final StoppedChain chain = stopped.poll();
            resumedReads.incrementAndGet();
            read(chain.partition(), chain.chain(), chain.sequence(), true);
        }
        if (stopped.isEmpty() && resumedReads.get() == 0) {
            behind.set(false);
        }
    }

    // ---- helpers ----

    private long[] tails(final Set<Integer> parts) {
        final long[] tails = new long[partitions];
        final Map<Integer, CompletionStage<EventJournalInitialSubscriberState>> pending = new HashMap<>();
        for (final int p : parts) {
            pending.put(p, journal.subscribeToEventJournal(p));
        }
        pending.forEach((p, stage) -> tails[p] = join(stage).getNewestSequence());
        return tails;
    }

    /**
     * The snapshot query for {@code parts}: the whole map when every partition is asked for, else
     * only those partitions (a resync of one partition reads its entries, not the map's).
     */
    private Predicate<Object, Object> queryOf(final Set<Integer> parts) {
        if (parts.size() == partitions) {
            return where;
        }
        final Set<Object> keys = new HashSet<>();
        for (final int p : parts) {
            keys.add(keyIn(p));
        }
        return Predicates.multiPartitionPredicate(keys, where);
    }

    /** A key (an Integer) that lives in partition {@code p}: what a partition predicate names a partition by. */
    private Object keyIn(final int p) {
        if (keyOfPartition == null) {
            keyOfPartition = new Object[partitions];
            int found = 0;
            for (int candidate = 0; found < partitions; candidate++) {
                if (candidate == Integer.MAX_VALUE) {
                    throw new IllegalStateException("bug: no Integer key found for every one of " + partitions + " partitions");
                }
                final int partition = partitionOf(candidate);
                if (keyOfPartition[partition] == null) {
                    keyOfPartition[partition] = candidate;
                    found++;
                }
            }
        }
        return keyOfPartition[p];
    }

    private int partitionOf(final Object key) {
        return client.getPartitionService().getPartition(key).getPartitionId();
    }

    private Set<Integer> allPartitions() {
        final Set<Integer> all = new TreeSet<>();
        for (int p = 0; p < partitions; p++) {
            all.add(p);
        }
        return all;
    }

    private static <T> T join(final CompletionStage<T> stage) {
        return stage.toCompletableFuture().join();
    }
}
