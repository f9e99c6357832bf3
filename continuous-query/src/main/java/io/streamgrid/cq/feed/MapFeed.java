package io.streamgrid.cq.feed;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.function.FunctionEx;
import com.hazelcast.internal.journal.EventJournalReader;
import com.hazelcast.map.EventJournalMapEvent;
import com.hazelcast.partition.Partition;
import com.hazelcast.ringbuffer.ReadResultSet;
import com.hazelcast.topic.ITopic;
import io.streamgrid.cq.Where;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One map's feed on one member: a chain of long-poll reads of the event journal for each partition
 * this member owns, shared by every subscription of the map — one read per change, however many
 * subscribe — and each subscription's matching changes pushed to its topic.
 *
 * <p>Confined to the feed thread of {@link ChangeFeeds}: the journal reads complete on it, and
 * subscriptions come and go on it, so a subscription added between two reads starts exactly at
 * the next one (its batches never claim changes it was not shown).
 */
final class MapFeed {
    private static final Logger LOG = Logger.getLogger(MapFeed.class.getName());
    private static final int MAX_BATCH = 512;
    private static final long NOT_READING = -1;

    private final String map;
    private final HazelcastInstance member;
    private final EventJournalReader<EventJournalMapEvent<Object, Object>> journal;
    private final ScheduledExecutorService thread;
    private final int partitions;
    private final Map<String, Subscriber> subscribers = new LinkedHashMap<>();
    /** Per partition: bumped to stop the partition's read chain (a stale read's result is dropped). */
    private final int[] generation;
    private final boolean[] reading;
    /** Per partition: the next journal sequence this feed reads, or {@link #NOT_READING}. */
    private final long[] cursor;

    /** A subscription fed here: per partition, where its last batch ended ({@link #NOT_READING} before the first read). */
    private record Subscriber(String id, Where where, ITopic<Object> topic, long[] sent) {
    }

    @SuppressWarnings("unchecked")
    MapFeed(final String map, final HazelcastInstance member, final ScheduledExecutorService thread) {
        this.map = map;
        this.member = member;
        this.journal = (EventJournalReader<EventJournalMapEvent<Object, Object>>) (Object) member.getMap(map);
        this.thread = thread;
        this.partitions = member.getPartitionService().getPartitions().size();
        this.generation = new int[partitions];
        this.reading = new boolean[partitions];
        this.cursor = new long[partitions];
        Arrays.fill(cursor, NOT_READING);
    }

    void add(final String id, final Where where) {
        final long[] sent = cursor.clone(); // from the next read on, or from a chain's first read
        subscribers.put(id, new Subscriber(id, where, member.getTopic(FeedProtocol.topicOf(id)), sent));
        followOwnership();
    }

    void remove(final String id) {
        subscribers.remove(id);
    }

    boolean isEmpty() {
        return subscribers.isEmpty();
    }

    /** Starts reading the partitions this member now owns and stops reading those it no longer owns. */
    void followOwnership() {
        for (int p = 0; p < partitions; p++) {
            final boolean owned = ownedHere(p);
            if (owned && !reading[p]) {
                start(p);
            } else if (!owned && reading[p]) {
                stop(p);
            }
        }
    }

    void close() {
        for (int p = 0; p < partitions; p++) {
            stop(p);
        }
        subscribers.clear();
    }

    /** Tells each subscriber, per partition read here, where its batches stand (see {@link FeedMark}). */
    void mark() {
        for (final Subscriber subscriber : subscribers.values()) {
            final List<Integer> parts = new ArrayList<>();
            for (int p = 0; p < partitions; p++) {
                if (reading[p] && cursor[p] != NOT_READING && subscriber.sent[p] != NOT_READING) {
                    parts.add(p);
                }
            }
            final int[] ids = new int[parts.size()];
            final long[] sent = new long[ids.length];
            final long[] read = new long[ids.length];
            for (int i = 0; i < ids.length; i++) {
                ids[i] = parts.get(i);
                sent[i] = subscriber.sent[ids[i]];
                read[i] = cursor[ids[i]];
            }
            subscriber.topic.publish(new FeedMark(ids, sent, read));
        }
    }

    private boolean ownedHere(final int p) {
        final Partition partition = member.getPartitionService().getPartition(p);
        return partition.getOwner() != null && partition.getOwner().localMember();
    }

    private void start(final int p) {
        reading[p] = true;
        final int chain = ++generation[p];
        journal.subscribeToEventJournal(p).whenCompleteAsync((state, error) -> {
            if (generation[p] != chain) {
                return;
            }
            if (error != null) {
                LOG.log(Level.FINE, "feed of " + map + ": partition " + p + " not started, tried again later: " + error);
                reading[p] = false; // the next ownership pass tries again
                return;
            }
            final long first = state.getNewestSequence() + 1;
            cursor[p] = first;
            for (final Subscriber subscriber : subscribers.values()) {
                subscriber.sent[p] = first;
            }
            read(p, chain, first);
        }, thread);
    }

    private void stop(final int p) {
        reading[p] = false;
        generation[p]++;
        cursor[p] = NOT_READING;
        for (final Subscriber subscriber : subscribers.values()) {
            subscriber.sent[p] = NOT_READING;
        }
    }

    private void read(final int p, final int chain, final long sequence) {
        journal.readFromEventJournal(sequence, 1, MAX_BATCH, p, null, FunctionEx.identity())
                .whenCompleteAsync((batch, error) -> {
                    if (generation[p] != chain) {
                        return;
                    }
                    try {
                        if (error != null) {
                            onReadFailure(p, chain, sequence, error);
                        } else {
                            deliver(p, sequence, batch);
                            read(p, chain, batch.getNextSequenceToReadFrom());
                        }
                    } catch (final RuntimeException e) {
                        // Clients read what this chain would have pushed from the journal themselves.
                        LOG.log(Level.WARNING, "feed of " + map + ": partition " + p + " stopped, restarted at the next ownership pass", e);
                        stop(p);
                    }
                }, thread);
    }

    private void onReadFailure(final int p, final int chain, final long sequence, final Throwable error) {
        if (!member.getLifecycleService().isRunning()) {
            return;
        }
        LOG.log(Level.FINE, "feed of " + map + ": read of partition " + p + " failed, tried again: " + error);
        thread.schedule(() -> {
            if (generation[p] == chain) {
                read(p, chain, sequence);
            }
        }, 100, TimeUnit.MILLISECONDS);
    }

    /**
     * Pushes each subscriber its matching changes of {@code batch} (read from {@code requested}).
     * A subscriber whose predicate fails on a value (a field the values lack) is dropped from the
     * feed: its client then reads the journal itself and reports the failure.
     */
    private void deliver(final int p, final long requested, final ReadResultSet<EventJournalMapEvent<Object, Object>> batch) {
        final long next = batch.getNextSequenceToReadFrom();
        final long lost = next - batch.readCount() - requested;
        final long first = requested + Math.max(0, lost);
        for (final Subscriber subscriber : List.copyOf(subscribers.values())) {
            final List<FeedBatch.Change> changes;
            try {
                changes = matching(subscriber.where, batch);
            } catch (final RuntimeException e) {
                LOG.log(Level.WARNING, "feed of " + map + ": subscription " + subscriber.id + " dropped from the feed: " + e);
                subscribers.remove(subscriber.id);
                continue;
            }
            final boolean continues = lost <= 0 && subscriber.sent[p] != NOT_READING;
            if (!changes.isEmpty() || !continues) {
                subscriber.topic.publish(new FeedBatch(p, continues ? subscriber.sent[p] : first, next, changes));
                subscriber.sent[p] = next;
            }
        }
        cursor[p] = next;
    }

    private static List<FeedBatch.Change> matching(final Where where, final ReadResultSet<EventJournalMapEvent<Object, Object>> batch) {
        final List<FeedBatch.Change> changes = new ArrayList<>();
        for (int i = 0; i < batch.size(); i++) {
            final EventJournalMapEvent<Object, Object> event = batch.get(i);
            if (where.test(event.getNewValue())) {
                changes.add(new FeedBatch.Change(batch.getSequence(i), false, event.getKey(), event.getNewValue()));
            } else if (where.test(event.getOldValue())) {
                changes.add(new FeedBatch.Change(batch.getSequence(i), true, event.getKey(), event.getOldValue()));
            }
        }
        return changes;
    }
}
