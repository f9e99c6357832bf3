package io.streamgrid.client.impl;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.function.FunctionEx;
import com.hazelcast.internal.journal.EventJournalInitialSubscriberState;
import com.hazelcast.internal.journal.EventJournalReader;
import com.hazelcast.map.EventJournalMapEvent;
import com.hazelcast.map.IMap;
import com.hazelcast.query.Predicate;
import com.hazelcast.query.Predicates;
import com.hazelcast.ringbuffer.ReadResultSet;
import com.hazelcast.topic.ITopic;
import io.streamgrid.client.Delta;
import io.streamgrid.client.DeltaListener;
import io.streamgrid.client.Subscription;
import io.streamgrid.client.SubscriptionOptions;
import io.streamgrid.cq.ChangeFilter;
import io.streamgrid.cq.Where;
import io.streamgrid.cq.feed.FeedBatch;
import io.streamgrid.cq.feed.FeedMark;
import io.streamgrid.cq.feed.FeedProtocol;
import io.streamgrid.cq.feed.FeedSpec;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A continuous query over a map's event journal, pushed by the members' change feeds.
 *
 * <p>Why the journal: it is partitioned, sequenced, backed up like the map and migrates with its
 * partitions, so a member crash or a migration loses nothing a reader has not yet read. The members
 * read each map's journal once for all its subscriptions ({@link io.streamgrid.cq.feed.ChangeFeeds})
 * and push each subscription the matching changes of each partition in batches to a topic of its
 * own, with the journal sequences every batch covers, and a mark four times a second saying how far
 * they have read. One delivery thread applies changes to the subscription's mirror of the result
 * and calls the listener, so deltas of a key arrive in journal (= write) order.
 *
 * <p>The feed is an accelerator, the journal the truth: the subscription keeps, per partition, the
 * sequence it has seen everything up to. A batch that starts later, or a mark saying a batch was
 * sent that never came (a lost message, a full buffer, a member that died, a partition that moved),
 * makes it read the missing sequences from the journal itself; a partition no member has spoken of
 * for {@link FeedProtocol#SILENCE} is read the same way (a cluster without feeds still works, by
 * polling). Only when the journal no longer holds what is missing does that partition resynchronise:
 * the delivery thread re-reads the map's matching entries of the partition, delivers the difference
 * to the mirror as deltas and reports RESYNC. A full buffer (slow listener) drops what the feed
 * pushes; the marks that follow make the subscription read it from the journal once there is room.
 *
 * <p>Registration: an entry in the registry map {@link FeedProtocol#REGISTRY} whose time to live
 * is the lease, renewed every {@link FeedProtocol#RENEW_EVERY} and removed on close — members stop
 * feeding a subscription whose client died when its lease runs out.
 *
 * <p>Failures: a listener that throws is logged and counted, and the subscription goes on (the
 * mirror was updated before the call, so nothing is lost or repeated by it). A resync or journal
 * read that fails (the map query while a member leaves, say) is tried again with backoff, unless
 * the failure says the predicate does not fit the map's values (a field they do not have). Only
 * when the client is shut down, or something else fails on the delivery thread, does the
 * subscription end: FAILED with the cause, {@link DeltaListener#onFailure} called once — never
 * silently.
 *
 * <p>Catch-up without going back: the snapshot query runs between two readings of each partition's
 * journal tail, and the changes between those tails are reconciled with the snapshot per key — only
 * those after the snapshot's state are delivered — so a listener never sees a key's value go back.
 */
final class ContinuousSubscription implements Subscription {
    private static final Logger LOG = Logger.getLogger(ContinuousSubscription.class.getName());
    private static final int MAX_BATCH = 512;
    private static final Object ABSENT = new Object();

    private final HazelcastInstance client;
    private final IMap<Object, Object> map;
    private final EventJournalReader<EventJournalMapEvent<Object, Object>> journal;
    private final Where where;
    private final ChangeFilter filter;
    private final DeltaListener listener;
    private final int partitions;
    private final ArrayBlockingQueue<Object> queue;
    /**
     * The subscription's result: what the listener has been told, per key. Written by the delivery
     * thread only; a {@link MirrorView} reads it from any thread (it is then a ConcurrentHashMap).
     */
    private final Map<Object, Object> mirror;
    /** Per partition, a key in it (delivery thread only; made on the first partial resync). */
    private Object[] keyOfPartition;
    /** Per partition, the journal sequence the mirror reflects every change up to (delivery thread only). */
    private final long[] appliedThrough;
    /** Per partition, when a member last spoke of it (nanoTime; delivery thread only). */
    private final long[] lastHeard;
    private final String id = UUID.randomUUID().toString();
    private final IMap<String, FeedSpec> registry;
    private final ITopic<Object> feed;
    private final AtomicBoolean overflowing = new AtomicBoolean();
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong resyncs = new AtomicLong();
    private final AtomicLong overflows = new AtomicLong();
    private final AtomicLong journalReads = new AtomicLong();
    /** Feed messages dropped because the buffer was full. */
    private final AtomicLong droppedMessages = new AtomicLong();
    private final AtomicLong listenerErrors = new AtomicLong();
    private volatile State state = State.RUNNING;
    private volatile Throwable failure;
    private final CompletableFuture<Void> started = new CompletableFuture<>();
    private final Thread delivery;
    private volatile boolean closed;
    private boolean toldOfPolling;
    /** {@link #droppedMessages} at the last silence check (delivery thread only). */
    private long droppedAtLastCheck;

    /**
     * @param mirror where the subscription keeps its result, empty: a HashMap when only the delivery
     *               thread reads it, a ConcurrentHashMap when other threads read it too (a view)
     */
    @SuppressWarnings("unchecked")
    ContinuousSubscription(final HazelcastInstance client, final String mapName, final Where where, final DeltaListener listener,
                           final SubscriptionOptions options, final Map<Object, Object> mirror) {
        if (!mirror.isEmpty()) {
            throw new IllegalArgumentException("bug: a subscription starts with an empty mirror");
        }
        this.mirror = mirror;
        this.client = client;
        this.map = client.getMap(mapName);
        this.journal = (EventJournalReader<EventJournalMapEvent<Object, Object>>) (Object) map;
        this.where = where;
        this.filter = new ChangeFilter(where);
        this.listener = listener;
        this.partitions = client.getPartitionService().getPartitions().size();
        this.queue = new ArrayBlockingQueue<>(options.bufferCapacity());
        this.appliedThrough = new long[partitions];
        this.lastHeard = new long[partitions];
        this.registry = client.getMap(FeedProtocol.REGISTRY);
        this.feed = client.getTopic(FeedProtocol.topicOf(id));
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
    public long journalReads() {
        return journalReads.get();
    }

    @Override
    public long listenerErrors() {
        return listenerErrors.get();
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
        UUID feedListener = null;
        try {
            feedListener = feed.addMessageListener(message -> {
                if (!queue.offer(message.getMessageObject())) {
                    overflow();
                }
            });
            final FeedSpec spec = new FeedSpec(map.getName(), where);
            registry.set(id, spec, FeedProtocol.LEASE.toMillis(), TimeUnit.MILLISECONDS);
            catchUp(allPartitions(), true, "start");
            started.complete(null);
            long now = System.nanoTime();
            Arrays.fill(lastHeard, now);
            long nextRenewal = now + FeedProtocol.RENEW_EVERY.toNanos();
            long nextSilenceCheck = now + 1_000_000_000L;
            while (!closed) {
                final Object item = queue.poll(100, TimeUnit.MILLISECONDS);
                if (item instanceof FeedBatch batch) {
                    onBatch(batch);
                } else if (item instanceof FeedMark mark) {
                    onMark(mark);
                } else if (item == null && !client.getLifecycleService().isRunning()) {
                    throw new IllegalStateException("the Hazelcast client of this subscription was shut down");
                }
                if (overflowing.get() && queue.isEmpty()) {
                    overflowing.set(false);
                }
                now = System.nanoTime();
                if (now > nextRenewal) {
                    renewLease(spec);
                    nextRenewal = now + FeedProtocol.RENEW_EVERY.toNanos();
                }
                if (now > nextSilenceCheck) {
                    readSilentPartitions(now);
                    nextSilenceCheck = now + 1_000_000_000L;
                }
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (final RuntimeException | Error e) {
            if (!started.isDone()) {
                started.completeExceptionally(e);
            } else if (!closed) {
                fail(e);
            }
        } finally {
            stopFeed(feedListener);
        }
    }

    /** Applies a batch of the feed: first whatever it skipped (read from the journal), then its changes. */
    private void onBatch(final FeedBatch batch) throws InterruptedException {
        final int p = batch.partition();
        lastHeard[p] = System.nanoTime();
        if (batch.from() > appliedThrough[p] + 1) {
            readJournal(p, batch.from() - 1, "the change feed skipped sequences " + (appliedThrough[p] + 1) + ".." + (batch.from() - 1));
        }
        for (final FeedBatch.Change change : batch.changes()) {
            apply(new Delta(change.leave() ? Delta.Kind.LEAVE : Delta.Kind.UPDATE, change.key(), change.value(), p,
                    change.sequence()));
        }
        appliedThrough[p] = Math.max(appliedThrough[p], batch.next() - 1);
    }

    /** A member's mark: a batch it sent that never came is read from the journal; otherwise nothing before its read position matched. */
    private void onMark(final FeedMark mark) throws InterruptedException {
        final long now = System.nanoTime();
        for (int i = 0; i < mark.size(); i++) {
            final int p = mark.partition(i);
            lastHeard[p] = now;
            if (mark.sent(i) - 1 > appliedThrough[p]) {
                readJournal(p, mark.read(i) - 1, "a batch of the change feed did not arrive");
            } else {
                appliedThrough[p] = Math.max(appliedThrough[p], mark.read(i) - 1);
            }
        }
    }

    /** Partitions no member spoke of for {@link FeedProtocol#SILENCE}: read their journal up to its newest change. */
    private void readSilentPartitions(final long now) throws InterruptedException {
        final List<Integer> silent = new ArrayList<>();
        for (int p = 0; p < partitions; p++) {
            if (now - lastHeard[p] > FeedProtocol.SILENCE.toNanos()) {
                silent.add(p);
            }
        }
        if (silent.isEmpty()) {
            return;
        }
        final long droppedNow = droppedMessages.get();
        final boolean dropped = droppedNow != droppedAtLastCheck;
        droppedAtLastCheck = droppedNow;
        if (!dropped && !toldOfPolling) {
            toldOfPolling = true;
            LOG.warning(() -> "subscription to " + map.getName() + ": no change feed heard of " + silent.size() + " partition(s) for "
                    + FeedProtocol.SILENCE.toSeconds() + " s (members without StreamGrid's change feeds?); reading their journal "
                    + "every second until a feed speaks (told once)");
        }
        final Set<Integer> parts = new TreeSet<>(silent);
        final long[] newest = tails(parts);
        final Set<Integer> lost = new TreeSet<>();
        for (final int p : silent) {
            if (!readJournalIfHeld(p, newest[p])) {
                lost.add(p);
            }
            lastHeard[p] = now;
        }
        if (!lost.isEmpty()) {
            resyncUntilDone(lost, (dropped ? "the buffer was full and dropped the change feed's messages"
                    : "no change feed heard of the partitions") + "; the journal no longer holds what was missed");
        }
    }

    /**
     * Reads partition {@code p}'s journal from after what the mirror reflects up to {@code through}
     * and applies the matching changes; resynchronises the partition when the journal no longer
     * holds them.
     */
    private void readJournal(final int p, final long through, final String reason) throws InterruptedException {
        if (!readJournalIfHeld(p, through)) {
            resyncUntilDone(Set.of(p), reason + "; the journal no longer holds them");
        }
    }

    /**
     * As {@link #readJournal}, but returns false instead of resynchronising when the journal no
     * longer holds what is missing. A failed read is tried again with backoff (as a resync is).
     */
    private boolean readJournalIfHeld(final int p, final long through) throws InterruptedException {
        if (appliedThrough[p] >= through) {
            return true;
        }
        journalReads.incrementAndGet();
        long backoffMs = 100;
        while (!closed && appliedThrough[p] < through) {
            final long seq = appliedThrough[p] + 1;
            try {
                final ReadResultSet<EventJournalMapEvent<Object, Object>> batch = join(
                        journal.readFromEventJournal(seq, 0, MAX_BATCH, p, filter, FunctionEx.identity()));
                if (batch.getNextSequenceToReadFrom() - batch.readCount() > seq) {
                    return false;
                }
                for (int i = 0; i < batch.size() && batch.getSequence(i) <= through; i++) {
                    final Delta delta = toDelta(batch.get(i), p, batch.getSequence(i));
                    if (delta != null) {
                        apply(delta);
                    }
                }
                if (batch.getNextSequenceToReadFrom() <= seq) {
                    return true; // nothing newer in the journal yet
                }
                appliedThrough[p] = Math.max(appliedThrough[p], Math.min(through, batch.getNextSequenceToReadFrom() - 1));
            } catch (final RuntimeException e) {
                if (!client.getLifecycleService().isRunning() || isPermanent(e)) {
                    throw e;
                }
                LOG.log(Level.WARNING, "subscription to " + map.getName() + ": reading partition " + p + "'s journal failed ("
                        + e + "); trying again in " + backoffMs + " ms");
                Thread.sleep(backoffMs);
                backoffMs = Math.min(5_000, backoffMs * 2);
            }
        }
        return true;
    }

    private void renewLease(final FeedSpec spec) {
        registry.setAsync(id, spec, FeedProtocol.LEASE.toMillis(), TimeUnit.MILLISECONDS).whenComplete((done, error) -> {
            if (error != null && !closed) {
                LOG.log(Level.FINE, "subscription to " + map.getName() + ": lease not renewed this time: " + error);
            }
        });
    }

    /** Tells the members to stop feeding this subscription and stops listening (best effort: the lease ends it anyway). */
    private void stopFeed(final UUID feedListener) {
        if (!client.getLifecycleService().isRunning()) {
            return;
        }
        try {
            registry.removeAsync(id);
            if (feedListener != null) {
                feed.removeMessageListener(feedListener);
            }
            feed.destroy();
        } catch (final RuntimeException e) {
            LOG.log(Level.FINE, "subscription to " + map.getName() + ": feed not stopped cleanly (its lease will end it)", e);
        }
    }

    /** The subscription cannot go on: FAILED with {@code cause}, logged, and the listener told once. */
    private void fail(final Throwable cause) {
        failure = cause;
        state = State.FAILED;
        LOG.log(Level.SEVERE, "subscription to " + map.getName() + " failed and stopped: " + cause, cause);
        try {
            listener.onFailure(cause);
        } catch (final RuntimeException e) {
            LOG.log(Level.WARNING, "subscription to " + map.getName() + ": the listener's onFailure threw", e);
        }
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
        catchUp(parts, false, reason);
        resyncs.incrementAndGet();
        try {
            listener.onResync(parts, reason);
        } catch (final RuntimeException e) {
            listenerFailed(e, "onResync");
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
                        journal.readFromEventJournal(seq, 0, MAX_BATCH, p, filter, FunctionEx.identity()));
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
                listenerFailed(e, "onSnapshot");
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

    /**
     * Whether trying again cannot help: the predicate itself is wrong for the map's values (an
     * {@link IllegalArgumentException} such as {@link io.streamgrid.cq.UnknownFieldException}, which
     * reaches a client as Hazelcast's {@code UndefinedErrorCodeException} naming the original class).
     */
    private static boolean isPermanent(final Throwable error) {
        for (Throwable t = error; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof IllegalArgumentException) {
                return true;
            }
            if (t instanceof com.hazelcast.client.UndefinedErrorCodeException undefined) {
                final String origin = undefined.getOriginClassName();
                if (origin.equals(io.streamgrid.cq.UnknownFieldException.class.getName())
                        || origin.equals(IllegalArgumentException.class.getName())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Called on a client event thread when the buffer is full: the feed's message is dropped (marks make it read later). */
    private void overflow() {
        droppedMessages.incrementAndGet();
        if (overflowing.compareAndSet(false, true)) {
            overflows.incrementAndGet();
            LOG.warning(() -> "subscription to " + map.getName() + ": listener fell " + queue.size()
                    + " messages behind; what the feed pushes meanwhile is dropped and read from the journal once there is room");
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
