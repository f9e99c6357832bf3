package io.streamgrid.client.impl;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.journal.EventJournalReader;
import com.hazelcast.map.EventJournalMapEvent;
import com.hazelcast.ringbuffer.ReadResultSet;
import io.streamgrid.cq.ChangeFilter;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;

/**
 * The journal reads of one client's subscriptions to one map, shared: one chain of long-poll reads
 * per partition, filtered on the member by the union of the subscriptions' predicates
 * ({@link ChangeFilter#anyOf}), each batch handed to every subscription attached to that partition,
 * which keeps what matches its own predicate.
 *
 * <p>Why: a parked journal read is re-run on its partition's thread by every write to the
 * partition, so N subscriptions reading on their own cost the members N re-runs (and N responses)
 * per write; shared, one. The profile of 100 subscriptions of one map (cq-fanout) had those re-runs
 * as the members' main cost and delivery p99 in the hundreds of milliseconds.
 *
 * <p>What keeps every subscription complete — each change it matches offered once or more, in
 * journal order per partition (a subscription drops what it has already applied, by sequence):
 * <ul>
 *   <li>A subscription is attached to a partition <em>after</em> a sequence (its snapshot's tail):
 *       a reading that is ahead of that is rewound to it, and a read parked with a union that lacks
 *       the subscription's predicate is replaced (a parked read never sees a predicate added later —
 *       the replaced read stays parked on the member until a change it passes arrives, and its
 *       answer is dropped).</li>
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
 * never waits.
 */
final class MapFeed {
    private final HazelcastInstance client;
    private final EventJournalReader<EventJournalMapEvent<Object, Object>> journal;
    private final Part[] parts;
    /** The subscriptions reading through this feed (guarded by this). */
    private final Set<ContinuousSubscription> members = new LinkedHashSet<>();
    /** The union of the members' predicates; null without members. */
    private volatile ChangeFilter union;

    /** One partition's reading. */
    private static final class Part {
        final int partition;
        /** Subscriptions handed this partition's changes, in the order they attached. */
        final List<ContinuousSubscription> attached = new ArrayList<>();
        /** Answers of reads issued under an older generation are dropped. */
        int generation;
        /** Whether a read of this generation is in flight (or waits to be retried). */
        boolean reading;
        /** Where the read in flight started; the next read starts where it ends. */
        long sequence;
        /** The filter of the read in flight. */
        ChangeFilter filter;

        Part(final int partition) {
            this.partition = partition;
        }
    }

    @SuppressWarnings("unchecked")
    MapFeed(final HazelcastInstance client, final String mapName) {
        this.client = client;
        this.journal = (EventJournalReader<EventJournalMapEvent<Object, Object>>) (Object) client.getMap(mapName);
        final int partitions = client.getPartitionService().getPartitions().size();
        this.parts = new Part[partitions];
        for (int p = 0; p < partitions; p++) {
            parts[p] = new Part(p);
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
        for (int p = 0; p < parts.length; p++) {
            attach(subscription, p, tails[p]);
        }
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
            part.attached.add(subscription);
            if (part.reading && part.sequence <= after + 1 && part.filter.includes(subscription.where())) {
                return; // the read in flight passes its changes from far enough back
            }
            part.sequence = part.reading ? Math.min(part.sequence, after + 1) : after + 1;
            part.generation++;
            issue(part);
        }
    }

    /** Under this feed's lock. */
    private ChangeFilter unionOfMembers() {
        return ChangeFilter.anyOf(members.stream().map(ContinuousSubscription::where).toList());
    }

    /** Under the part's lock. */
    private void issue(final Part part) {
        part.reading = true;
        part.filter = union;
        final int generation = part.generation;
        final long sequence = part.sequence;
        final CompletionStage<ReadResultSet<EventJournalMapEvent<Object, Object>>> reading;
        try {
            reading = journal.readFromEventJournal(sequence, 1, ContinuousSubscription.MAX_BATCH, part.partition, part.filter, null);
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
                } else {
                    handOut(part, sequence, batch);
                }
            }
        });
    }

    /** Under the part's lock: the answer to the read that started at {@code sequence}. */
    private void handOut(final Part part, final long sequence, final ReadResultSet<EventJournalMapEvent<Object, Object>> batch) {
        // An empty read reports 0 as the next sequence (Hazelcast never sets it): stay where we are.
        final long next = batch.readCount() == 0 ? sequence : batch.getNextSequenceToReadFrom();
        final long lost = next - batch.readCount() - sequence;
        final List<ContinuousSubscription> attached = part.attached;
        if (lost > 0) {
            // Each resynchronises the partition and attaches again after it: reading on past the gap
            // meanwhile would find more gaps in a burst and ask each for more resyncs.
            lose(part, sequence, lost + " journal events overwritten before they were read");
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
        } else {
            issue(part);
        }
    }

    /** Under the part's lock. */
    private void onFailure(final Part part, final int generation, final Throwable error) {
        if (!client.getLifecycleService().isRunning()) {
            return;
        }
        final Throwable cause = ContinuousSubscription.causeOf(error);
        if (ContinuousSubscription.isTransient(cause)) {
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

    /** Under the part's lock: no one is attached; a read still parked is answered into nothing. */
    private static void stopReading(final Part part) {
        part.reading = false;
        part.generation++;
    }
}
