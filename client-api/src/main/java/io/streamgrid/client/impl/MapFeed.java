package io.streamgrid.client.impl;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.journal.EventJournalReader;
import com.hazelcast.map.EventJournalMapEvent;
import com.hazelcast.map.IMap;
import com.hazelcast.ringbuffer.ReadResultSet;
import io.streamgrid.client.impl.push.PushMessage;
import io.streamgrid.cq.ChangeFilter;
import io.streamgrid.cq.Where;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The journal reads of one client's subscriptions to one map, shared: one chain of reads per
 * partition, filtered on the member by the union of the subscriptions' predicates
 * ({@link ChangeFilter#anyOf}), each batch handed to every subscription attached to that partition,
 * which keeps what matches its own predicate.
 *
 * <p>Why shared: N subscriptions reading on their own cost the members N reads (and N responses)
 * per change; shared, one. The profile of 100 subscriptions of one map (cq-fanout) had those reads
 * as the members' main cost and delivery p99 in the hundreds of milliseconds.
 *
 * <p>Why no read ever waits on a member: a journal read asking for at least one change parks on
 * the member until one arrives, and a parked read is what once stopped a cluster for good after a
 * member was killed — Hazelcast's promotion of the dead member's partitions answers the parked
 * operations of each promoted partition, and one that had already been answered (the same
 * operation run twice by a retried invocation) made the promotion throw, so it never finished and
 * every operation on those partitions was retried against the dead member for ever
 * ({@code MemberKillUnderSubscriptionsTest}). So every read asks for at least zero changes and
 * returns at once; what tells a chain that there is something to read is a <em>doorbell</em>: one
 * entry listener of this feed on the map, without values, filtered by the same union, whose events
 * say only "partition p changed". A chain reads on while reads come back full or the doorbell rang
 * meanwhile, else it rests until the doorbell rings. Listener events are not durable (a member
 * killed before it sent one loses it) and an update that takes an entry out of every predicate does
 * not ring (Hazelcast filters an update by its new value), so a <em>sweep</em> reads every resting
 * partition every {@link #SWEEP_MS} ms, and at once when a member leaves: a change the doorbell
 * missed is read within that time, never lost (the journal holds it). Its price: about
 * {@code 2 × partitions} empty reads a second per map a client follows when nothing changes.
 *
 * <p>What keeps every subscription complete — each change it matches offered once or more, in
 * journal order per partition (a subscription drops what it has already applied, by sequence):
 * <ul>
 *   <li>A subscription is attached to a partition <em>after</em> a sequence (its snapshot's tail):
 *       a chain that is ahead of that is rewound to it, and a read in flight with a union that
 *       lacks the subscription's predicate is replaced (its answer is dropped). A changed union
 *       registers a new doorbell before the old one goes, then rings every partition.</li>
 *   <li>A subscription whose buffer has no room for a change is detached from that partition at that
 *       change and reads it on its own from there (its back-pressure); it attaches again once it has
 *       caught up.</li>
 *   <li>A gap (the journal overwrote changes before the shared read got them) or a read failure that
 *       a retry will not fix detaches every attached subscription from that partition; each
 *       resynchronises it and attaches again after its resync.</li>
 * </ul>
 *
 * <p>Thread safety: each partition's state is guarded by its own lock, under which batches are
 * handed out and the next read is issued; handing out only offers to the subscriptions' queues and
 * never waits. The doorbell's registration has a lock of its own and no partition lock is held
 * while it talks to the cluster.
 */
final class MapFeed {
    /** How often every resting partition is read whether its doorbell rang or not. */
    static final long SWEEP_MS = 500;
    private static final Logger LOG = Logger.getLogger(MapFeed.class.getName());

    private final HazelcastInstance client;
    private final IMap<Object, Object> map;
    private final EventJournalReader<EventJournalMapEvent<Object, Object>> journal;
    private final Part[] parts;
    /** The subscriptions reading through this feed (guarded by this). */
    private final Set<ContinuousSubscription> members = new LinkedHashSet<>();
    /** The union of the members' predicates; null without members. */
    private volatile ChangeFilter union;
    /** Whether a sweep is scheduled (guarded by this). */
    private boolean sweeping;
    /** The key-only listener that says which partitions changed. */
    private final FeedDoorbell doorbell;
    /** Says when a member left and when the client is connected to another cluster. */
    private final ClusterWatch clusterWatch;
    /** The members' pushing of this map's changes; null when this feed reads the journals itself. */
    private final FeedPush push;
    /** Whether the members push (else this feed reads): false once a member could not. */
    private volatile boolean pushing;

    /** One partition's reading. */
    private static final class Part {
        final int partition;
        /** Subscriptions handed this partition's changes, in the order they attached. */
        final List<ContinuousSubscription> attached = new ArrayList<>();
        /** Answers of reads issued under an older generation are dropped. */
        int generation;
        /** Whether a read of this generation is in flight (or waits to be retried). */
        boolean reading;
        /** Whether the doorbell rang (or a sweep passed) since the read in flight was issued: read again after it. */
        boolean rung;
        /** Where the read in flight started, or, resting, where the next read starts. */
        long sequence;
        /** The filter of the read in flight. */
        ChangeFilter filter;

        Part(final int partition) {
            this.partition = partition;
        }
    }

    /** @param inbox where the members push this client's changes; null: this feed reads the journals itself */
    @SuppressWarnings("unchecked")
    MapFeed(final HazelcastInstance client, final String mapName, final PushInbox inbox) {
        this.client = client;
        this.map = client.getMap(mapName);
        this.journal = (EventJournalReader<EventJournalMapEvent<Object, Object>>) (Object) map;
        this.doorbell = new FeedDoorbell(client, map, this::ring, this::ringAll);
        final int partitions = client.getPartitionService().getPartitions().size();
        this.parts = new Part[partitions];
        for (int p = 0; p < partitions; p++) {
            parts[p] = new Part(p);
        }
        this.push = inbox == null ? null : new FeedPush(client, inbox, mapName, this, partitions);
        this.pushing = push != null;
        if (inbox != null) {
            inbox.register(mapName, this);
        }
        // Doorbell events the member that left had not sent yet are gone: read every partition now.
        // Pushed, the partitions the member that left pushed move to their new owners.
        this.clusterWatch = new ClusterWatch(client, () -> {
            if (pushing) {
                push.sweep();
            } else {
                ringAll();
            }
        }, this::clusterReplaced);
    }

    /** Every member subscription resynchronises every partition, and no partition is read until they attach again. */
    private void clusterReplaced() {
        final List<ContinuousSubscription> subscriptions;
        synchronized (this) {
            subscriptions = List.copyOf(members);
        }
        LOG.info(() -> "continuous queries of " + map.getName() + ": the client reconnected to another cluster; "
                + subscriptions.size() + " subscription(s) resynchronise");
        for (final Part part : parts) {
            synchronized (part) {
                part.attached.clear();
                stopReading(part);
            }
        }
        subscriptions.forEach(ContinuousSubscription::clusterReplaced);
    }

    /** Detaches {@code subscription} from {@code partition} (it resynchronises it and attaches again after). */
    void detach(final ContinuousSubscription subscription, final int partition) {
        final Part part = parts[partition];
        synchronized (part) {
            if (part.attached.remove(subscription) && part.attached.isEmpty()) {
                stopReading(part);
            }
        }
    }

    /** The journal this feed reads, for a subscription's own reads (its snapshot, its catching up). */
    EventJournalReader<EventJournalMapEvent<Object, Object>> journal() {
        return journal;
    }

    /**
     * Adds {@code subscription} and attaches it to every partition after {@code tails[p]}: from then
     * on it is offered every change after its snapshot that its predicate passes.
     */
    void join(final ContinuousSubscription subscription, final long[] tails) {
        synchronized (this) {
            members.add(subscription);
            union = unionOfMembers();
        }
        updateDoorbell();
        for (int p = 0; p < parts.length; p++) {
            attach(subscription, p, tails[p]);
        }
        synchronized (this) {
            if (sweeping) {
                return;
            }
            sweeping = true;
        }
        scheduleSweep();
    }

    /** Removes {@code subscription} from every partition and from the union. */
    void leave(final ContinuousSubscription subscription) {
        synchronized (this) {
            if (!members.remove(subscription)) {
                return;
            }
            union = members.isEmpty() ? null : unionOfMembers();
        }
        for (final Part part : parts) {
            synchronized (part) {
                if (part.attached.remove(subscription) && part.attached.isEmpty()) {
                    stopReading(part);
                }
            }
        }
        updateDoorbell();
    }

    /**
     * Attaches a member subscription to {@code partition}: it has (applied or queued) every change
     * up to {@code after} and is offered those after it. Attaching one already attached changes
     * nothing: it has been offered every change since it attached.
     */
    void attach(final ContinuousSubscription subscription, final int partition, final long after) {
        final Part part = parts[partition];
        synchronized (part) {
            if (part.attached.contains(subscription)) {
                return;
            }
            synchronized (this) {
                if (!members.contains(subscription)) {
                    return; // it has left (closed while it attached): nothing to read for it
                }
            }
            final boolean others = !part.attached.isEmpty();
            part.attached.add(subscription);
            if (part.reading && part.sequence <= after + 1 && part.filter.includes(subscription.where())) {
                part.rung = true; // the read in flight passes its changes from far enough back; read on after it
                return;
            }
            // Resting or reading, the others need every change from part.sequence on.
            part.sequence = others ? Math.min(part.sequence, after + 1) : after + 1;
            part.generation++;
            issue(part);
        }
    }

    /** Under this feed's lock. */
    private ChangeFilter unionOfMembers() {
        return ChangeFilter.anyOf(members.stream().map(ContinuousSubscription::where).toList());
    }

    /** Under the part's lock: reads what the journal holds from part.sequence on, without waiting for more. */
    private void issue(final Part part) {
        final ChangeFilter filter = union;
        if (filter == null) {
            stopReading(part); // the last member left meanwhile
            return;
        }
        part.reading = true;
        part.rung = false;
        part.filter = filter;
        final int generation = part.generation;
        final long sequence = part.sequence;
        if (pushing) {
            push.attach(part.partition, generation, sequence, filter); // the member pushes from there on
            return;
        }
        final CompletionStage<ReadResultSet<EventJournalMapEvent<Object, Object>>> reading;
        try {
            reading = journal.readFromEventJournal(sequence, 0, ContinuousSubscription.MAX_BATCH, part.partition, filter, null);
        } catch (final RuntimeException e) {
            onFailure(part, generation, e);
            return;
        }
        reading.whenComplete((batch, error) -> {
            synchronized (part) {
                if (generation != part.generation) {
                    return;
                }
                if (error != null) {
                    onFailure(part, generation, error);
                    return;
                }
                try {
                    handOut(part, sequence, batch);
                } catch (final RuntimeException e) {
                    // Never leave the partition marked as reading with no read in flight: it would never be read again.
                    LOG.log(Level.WARNING, "continuous queries of " + map.getName() + ": handing out partition " + part.partition
                            + "'s changes failed; its subscriptions resynchronise it", e);
                    onFailure(part, generation, e);
                }
            }
        });
    }

    /** Under the part's lock: the answer to the read that started at {@code sequence}. */
    private void handOut(final Part part, final long sequence, final ReadResultSet<EventJournalMapEvent<Object, Object>> batch) {
        final long next = JournalReads.next(sequence, batch);
        final List<ContinuousSubscription> attached = part.attached;
        final String trouble = JournalReads.trouble(part.partition, sequence, batch);
        if (trouble != null) {
            // Each resynchronises the partition and attaches again after it: reading on past a gap
            // meanwhile would find more gaps in a burst and ask each for more resyncs.
            lose(part, sequence, trouble);
        } else {
            for (int i = 0; i < batch.size() && !attached.isEmpty(); i++) {
                final EventJournalMapEvent<Object, Object> event = batch.get(i);
                final long at = batch.getSequence(i);
                for (int s = 0; s < attached.size(); s++) {
                    if (!attached.get(s).feedChange(part.partition, event, at)) {
                        attached.remove(s--); // no room: it reads on its own from this change
                    }
                }
            }
        }
        part.sequence = next;
        if (part.attached.isEmpty()) {
            stopReading(part);
        } else if (batch.readCount() == ContinuousSubscription.MAX_BATCH || part.rung) {
            issue(part); // more may be there already
        } else {
            part.reading = false; // caught up: rest until the doorbell rings or the sweep passes
        }
    }

    /** Under the part's lock. */
    private void onFailure(final Part part, final int generation, final Throwable error) {
        if (!client.getLifecycleService().isRunning()) {
            return;
        }
        final Throwable cause = ReadFailures.causeOf(error);
        if (ReadFailures.isTransient(cause)) {
            CompletableFuture.delayedExecutor(100, TimeUnit.MILLISECONDS).execute(() -> {
                synchronized (part) {
                    if (generation == part.generation && part.reading) {
                        issue(part);
                    }
                }
            });
            return;
        }
        lose(part, part.sequence, "journal read failed: " + cause);
        stopReading(part);
    }

    /** Under the part's lock: every attached subscription resynchronises the partition and attaches again after it. */
    private static void lose(final Part part, final long sequence, final String reason) {
        for (final ContinuousSubscription subscription : part.attached) {
            subscription.feedLost(part.partition, sequence, reason);
        }
        part.attached.clear();
    }

    /** Under the part's lock: no one is attached; the answer of a read still in flight (or a push) is dropped. */
    private void stopReading(final Part part) {
        part.reading = false;
        part.generation++;
        if (pushing) {
            push.detach(part.partition, part.generation);
        }
    }

    /** Something may have changed in {@code partition}: a resting chain reads, a reading one reads again after. */
    private void ring(final int partition) {
        final Part part = parts[partition];
        synchronized (part) {
            if (part.attached.isEmpty() || pushing) {
                return;
            }
            if (part.reading) {
                part.rung = true;
            } else {
                issue(part);
            }
        }
    }

    private void ringAll() {
        for (int p = 0; p < parts.length; p++) {
            ring(p);
        }
    }

    private void scheduleSweep() {
        CompletableFuture.delayedExecutor(SWEEP_MS, TimeUnit.MILLISECONDS).execute(this::sweep);
    }

    /** Every {@link #SWEEP_MS} while anyone reads through this feed: reads every partition, and registers a doorbell that failed to. */
    private void sweep() {
        synchronized (this) {
            if (members.isEmpty() || !client.getLifecycleService().isRunning()) {
                sweeping = false;
                return;
            }
        }
        try {
            clusterWatch.check();
            if (pushing) {
                push.sweep();
            } else {
                updateDoorbell();
                ringAll();
            }
        } finally {
            scheduleSweep();
        }
    }

    /** Registers the doorbell for the current union, or removes it when no one is left; reads every partition when it changed. */
    private void updateDoorbell() {
        if (pushing) {
            return; // the members ring themselves
        }
        if (doorbell.update(() -> union)) {
            ringAll();
        }
    }

    // ---- pushed by the members (the client's event threads) ----

    /** A member's message for this feed ({@link io.streamgrid.client.impl.push.PushMessage}). */
    void pushed(final PushMessage message, final UUID from) {
        push.heard(from);
        if (message.kind() == PushMessage.POSITIONS) {
            for (int i = 0; i < message.partitions().length; i++) {
                final Part part = parts[message.partitions()[i]];
                synchronized (part) {
                    if (pushing && part.reading && message.generations()[i] == part.generation && message.positions()[i] > part.sequence) {
                        LOG.fine(() -> map.getName() + ": a pushed message of partition " + part.partition + " was lost; attaching again");
                        part.generation++;
                        issue(part); // a message was lost on the way: from where this feed is, again
                    }
                }
            }
            return;
        }
        final Part part = parts[message.partition()];
        synchronized (part) {
            if (!pushing || !part.reading || message.generation() != part.generation) {
                return; // of an attachment this feed has replaced
            }
            if (message.kind() == PushMessage.LOST) {
                lose(part, part.sequence, message.reason());
                stopReading(part);
                return;
            }
            if (message.from() != part.sequence) {
                if (message.from() > part.sequence) {
                    part.generation++;
                    issue(part); // a message was lost on the way
                }
                return;
            }
            final List<ContinuousSubscription> attached = part.attached;
            for (int i = 0; i < message.size() && !attached.isEmpty(); i++) {
                for (int s = 0; s < attached.size(); s++) {
                    if (!attached.get(s).feedChange(part.partition, message.key(i), message.oldValue(i), message.newValue(i),
                            message.sequence(i))) {
                        attached.remove(s--); // no room: it reads on its own from this change
                    }
                }
            }
            part.sequence = message.next();
            if (attached.isEmpty()) {
                stopReading(part);
            }
        }
    }

    /** Attaches {@code partition} again (on its current owner) if its attachment is still {@code generation}. */
    void repush(final int partition, final int generation) {
        final Part part = parts[partition];
        synchronized (part) {
            if (pushing && part.reading && part.generation == generation) {
                part.generation++;
                issue(part);
            }
        }
    }

    /** The members cannot push: this feed reads every attached partition itself from where it is. */
    void pushUnavailable() {
        if (!pushing) {
            return;
        }
        pushing = false;
        updateDoorbell();
        for (final Part part : parts) {
            synchronized (part) {
                if (part.reading) {
                    part.generation++;
                    issue(part);
                }
            }
        }
    }
}
