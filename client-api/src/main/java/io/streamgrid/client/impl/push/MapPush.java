package io.streamgrid.client.impl.push;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.journal.EventJournalReader;
import com.hazelcast.map.EventJournalMapEvent;
import com.hazelcast.map.IMap;
import com.hazelcast.internal.serialization.Data;
import com.hazelcast.map.impl.journal.InternalEventJournalMapEvent;
import com.hazelcast.ringbuffer.ReadResultSet;
import com.hazelcast.topic.ITopic;
import io.streamgrid.client.impl.AnyChangeListener;
import io.streamgrid.client.impl.JournalReads;
import io.streamgrid.client.impl.ReadFailures;
import io.streamgrid.cq.ChangeFilter;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * One map's pushing on one member: per partition one chain of local journal reads, filtered by the
 * union of the attached feeds' filters, each answer handed to every feed attached to the partition
 * — the changes its own filter passes, from its own position — as one {@link PushMessage} on the
 * feed's topic. A chain reads on while reads come back full or a local change rang meanwhile
 * (a local entry listener: it hears the writes of the partitions this member owns, without a
 * network hop), else it rests; the sweep reads every attached partition every
 * {@link MemberPush#SWEEP_MS} ms (a partition that migrated away rings elsewhere) and sends each
 * feed its positions.
 *
 * <p>Thread safety: each partition's state is guarded by its own lock, under which answers are
 * handed out and published — so one feed's messages of a partition leave in order.
 */
final class MapPush {
    /** Most changes one read returns. */
    static final int MAX_BATCH = 1_000;
    private static final Logger LOG = Logger.getLogger(MapPush.class.getName());

    private final HazelcastInstance member;
    private final String name;
    private final EventJournalReader<EventJournalMapEvent<Object, Object>> journal;
    private final Executor handOut;
    private final Part[] parts;
    /** The feeds attached to any partition, by topic (guarded by this). */
    private final Map<String, Feed> feeds = new HashMap<>();
    /** The union of every attachment's filter: what a local change must pass to ring; null when none is attached. */
    private volatile ChangeFilter ringsFor;

    /** A client feed of this map: where its messages go and until when it is kept without news of it. */
    private static final class Feed {
        final ITopic<PushMessage> topic;
        volatile long leaseUntil;
        /** Messages waiting to leave as one bundle, in order (guarded by the feed). */
        final List<PushMessage> outbox = new ArrayList<>();
        boolean flushScheduled;
        /** Per partition, the newest generation a request of this feed carried (guarded by the partition's lock). */
        private final int[] newestGeneration;

        Feed(final ITopic<PushMessage> topic, final int partitions) {
            this.topic = topic;
            this.newestGeneration = new int[partitions];
            Arrays.fill(newestGeneration, Integer.MIN_VALUE);
        }

        /** Under the partition's lock: whether a request of {@code generation} is the newest for it (and records it). */
        boolean newest(final int partition, final int generation) {
            if (generation < newestGeneration[partition]) {
                return false;
            }
            newestGeneration[partition] = generation;
            return true;
        }
    }

    /** A feed attached to a partition. */
    private static final class Attachment {
        final Feed feed;
        final int generation;
        final ChangeFilter filter;
        /** The next sequence this feed is owed. */
        long position;
        /** Where the next message to the feed continues from (its last message's end). */
        long sent;

        Attachment(final Feed feed, final int generation, final ChangeFilter filter, final long position) {
            this.feed = feed;
            this.generation = generation;
            this.filter = filter;
            this.position = position;
            this.sent = position;
        }
    }

    private static final class Part {
        final int partition;
        final List<Attachment> attached = new ArrayList<>();
        /** The union of the attached filters, what its reads pass (kept with {@link #attached}); null when none. */
        ChangeFilter union;
        /** The filter of the read in flight (the union when it was issued). */
        ChangeFilter readFilter;
        int generation;
        boolean reading;
        boolean rung;
        long sequence;

        Part(final int partition) {
            this.partition = partition;
        }
    }

    @SuppressWarnings("unchecked")
    MapPush(final HazelcastInstance member, final String name, final Executor handOut) {
        this(member, name, handOut, (EventJournalReader<EventJournalMapEvent<Object, Object>>) (Object) member.getMap(name));
    }

    /** @param journal the map's journal (a test holds its answers back to have a read in flight when it wants) */
    MapPush(final HazelcastInstance member, final String name, final Executor handOut,
            final EventJournalReader<EventJournalMapEvent<Object, Object>> journal) {
        this.member = member;
        this.name = name;
        this.handOut = handOut;
        final IMap<Object, Object> map = member.getMap(name);
        this.journal = journal;
        final int partitions = member.getPartitionService().getPartitions().size();
        this.parts = new Part[partitions];
        for (int p = 0; p < partitions; p++) {
            parts[p] = new Part(p);
        }
        map.addLocalEntryListener(new Doorbell());
    }

    /**
     * Applies one request of a client feed ({@link PushControl}) and renews its lease. The requests
     * of a feed may run out of order here (the executor's threads), so each partition's attachment
     * or detachment carries the feed's generation for it, which only grows: one older than the
     * newest this feed's partition has seen is stale and ignored.
     */
    void control(final String topic, final ChangeFilter filter, final int[] attach, final int[] generations, final long[] positions,
                 final int[] detach, final int[] detachGenerations, final long leaseUntil) {
        final Feed feed;
        synchronized (this) {
            feed = feeds.computeIfAbsent(topic, t -> new Feed(member.getTopic(t), parts.length));
            feed.leaseUntil = leaseUntil;
        }
        for (int i = 0; i < detach.length; i++) {
            final Part part = parts[detach[i]];
            synchronized (part) {
                if (feed.newest(part.partition, detachGenerations[i])) {
                    part.attached.removeIf(a -> a.feed == feed);
                    attachmentsChanged(part);
                }
            }
        }
        for (int i = 0; i < attach.length; i++) {
            attach(parts[attach[i]], new Attachment(feed, generations[i], filter, positions[i]));
        }
        if (attach.length > 0 || detach.length > 0) {
            updateRingsFor();
        }
    }

    /** Recomputes {@link #ringsFor} from every partition's attachments. */
    private void updateRingsFor() {
        final List<Attachment> all = new ArrayList<>();
        for (final Part part : parts) {
            synchronized (part) {
                all.addAll(part.attached);
            }
        }
        ringsFor = all.isEmpty() ? null : unionOf(all);
    }

    private void attach(final Part part, final Attachment attachment) {
        synchronized (part) {
            if (!attachment.feed.newest(part.partition, attachment.generation)) {
                return; // a request this feed sent before one already applied
            }
            part.attached.removeIf(a -> a.feed == attachment.feed);
            final boolean others = !part.attached.isEmpty();
            part.attached.add(attachment);
            attachmentsChanged(part);
            if (part.reading && part.sequence <= attachment.position && covers(part.readFilter, attachment.filter)) {
                part.rung = true; // the read in flight started early enough and passes what it wants: its answer has a part for it
                return;
            }
            // Else the read in flight is replaced (its answer dropped): filtered without this
            // attachment's predicates, it would hand it a stretch with their changes missing.
            part.sequence = others ? Math.min(part.sequence, attachment.position) : attachment.position;
            part.generation++;
            issue(part);
        }
    }

    /** Under the part's lock. */
    private void issue(final Part part) {
        final ChangeFilter union = part.union;
        part.reading = true;
        part.rung = false;
        part.readFilter = union;
        final int generation = part.generation;
        final long sequence = part.sequence;
        final CompletionStage<ReadResultSet<EventJournalMapEvent<Object, Object>>> reading;
        try {
            reading = journal.readFromEventJournal(sequence, 0, MAX_BATCH, part.partition, union, null);
        } catch (final RuntimeException e) {
            failed(part, generation, e);
            return;
        }
        reading.whenCompleteAsync((batch, error) -> {
            synchronized (part) {
                if (generation != part.generation) {
                    return;
                }
                if (error != null) {
                    failed(part, generation, error);
                    return;
                }
                try {
                    handOut(part, sequence, batch);
                } catch (final RuntimeException e) {
                    LOG.log(Level.WARNING, "pushing " + name + "'s partition " + part.partition + " failed; its feeds resynchronise it", e);
                    lose(part, "the member failed to push its changes: " + e);
                }
            }
        }, handOut);
    }

    /** Under the part's lock, after its attachments changed: their union again; a part left without any stops. */
    private static void attachmentsChanged(final Part part) {
        part.union = part.attached.isEmpty() ? null : unionOf(part.attached);
        if (part.union == null) {
            stop(part);
        }
    }

    /** Whether {@code read} passes every change {@code wanted} passes. */
    private static boolean covers(final ChangeFilter read, final ChangeFilter wanted) {
        return wanted.wheres().stream().allMatch(read::includes);
    }

    private static ChangeFilter unionOf(final List<Attachment> attached) {
        if (attached.stream().allMatch(a -> a.filter.equals(attached.get(0).filter))) {
            return attached.get(0).filter;
        }
        final List<io.streamgrid.cq.Where> wheres = new ArrayList<>();
        attached.forEach(a -> wheres.addAll(a.filter.wheres()));
        return ChangeFilter.anyOf(wheres); // each text once
    }

    @SuppressWarnings("unchecked")
    private static EventJournalMapEvent<Object, Object>[] events(final ReadResultSet<EventJournalMapEvent<Object, Object>> batch,
                                                               final int size) {
        final EventJournalMapEvent<Object, Object>[] events = new EventJournalMapEvent[size];
        for (int i = 0; i < size; i++) {
            events[i] = batch.get(i);
        }
        return events;
    }

    /** Under the part's lock: the answer of the read that started at {@code sequence}. */
    private void handOut(final Part part, final long sequence, final ReadResultSet<EventJournalMapEvent<Object, Object>> batch) {
        final String trouble = JournalReads.trouble(part.partition, sequence, batch);
        if (trouble != null) {
            lose(part, trouble);
            return;
        }
        final long next = JournalReads.next(sequence, batch);
        // Each change is read out of the answer once (get(i) deserializes the whole event every time)
        // and leaves as the member's own serialized key and values: the messages of ten clients
        // share them, nothing is serialized again per client. Filtering per client needs the
        // values; one client attached with the read's own filter needs none, so nothing is deserialized.
        final boolean alone = part.attached.size() == 1 && part.attached.get(0).filter.equals(part.readFilter);
        final int size = batch.size();
        final EventJournalMapEvent<Object, Object>[] events = events(batch, size);
        for (final Attachment a : part.attached) {
            if (next <= a.position) {
                continue;
            }
            final List<Integer> passed = new ArrayList<>();
            for (int i = 0; i < size; i++) {
                if (batch.getSequence(i) >= a.position && (alone || a.filter.testEx(events[i]))) {
                    passed.add(i);
                }
            }
            a.position = next;
            if (passed.isEmpty()) {
                continue;
            }
            final int n = passed.size();
            final Data[] keys = new Data[n];
            final Data[] olds = new Data[n];
            final Data[] news = new Data[n];
            final long[] sequences = new long[n];
            for (int j = 0; j < n; j++) {
                final int i = passed.get(j);
                final InternalEventJournalMapEvent event = (InternalEventJournalMapEvent) events[i];
                keys[j] = event.getDataKey();
                olds[j] = event.getDataOldValue();
                news[j] = event.getDataNewValue();
                sequences[j] = batch.getSequence(i);
            }
            send(a.feed, PushMessage.changes(name, part.partition, a.generation, a.sent, next, keys, olds, news, sequences));
            a.sent = next;
        }
        part.sequence = next;
        if (batch.readCount() == MAX_BATCH || part.rung) {
            issue(part);
        } else {
            part.reading = false;
        }
    }

    /** Under the part's lock. */
    private void failed(final Part part, final int generation, final Throwable error) {
        if (!member.getLifecycleService().isRunning()) {
            return;
        }
        if (generation != part.generation) {
            return;
        }
        final Throwable cause = ReadFailures.causeOf(error);
        if (ReadFailures.isTransient(cause)) {
            // A migrating or promoted partition answers in a moment; the sweep tries again within its period.
            LOG.log(Level.FINE, "reading " + name + "'s partition " + part.partition + " failed; read again at the next sweep", cause);
            part.reading = false;
            return;
        }
        // Trying again will not help (a predicate that cannot judge the values written now): the
        // feeds resynchronise the partition, and a subscription whose query fails the same way ends
        // and tells its listener why — as when the client reads itself.
        lose(part, "journal read failed on the member: " + cause);
    }

    /**
     * Queues {@code message} for {@code feed}; what is queued leaves as one bundle when the hand-out
     * threads come to it — at once when they are idle, after the answers before it when busy.
     */
    private void send(final Feed feed, final PushMessage message) {
        synchronized (feed) {
            feed.outbox.add(message);
            if (feed.flushScheduled) {
                return;
            }
            feed.flushScheduled = true;
        }
        handOut.execute(() -> flush(feed));
    }

    private static void flush(final Feed feed) {
        synchronized (feed) { // publishing under the lock keeps the bundles in order
            feed.flushScheduled = false;
            if (feed.outbox.isEmpty()) {
                return;
            }
            final List<PushMessage> out = feed.outbox;
            feed.topic.publish(out.size() == 1 ? out.get(0) : PushMessage.bundle(out.toArray(PushMessage[]::new)));
            out.clear();
        }
    }

    /** Under the part's lock: every feed attached is told it must resynchronise the partition, and detached. */
    private void lose(final Part part, final String reason) {
        for (final Attachment a : part.attached) {
            send(a.feed, PushMessage.lost(name, part.partition, a.generation, a.sent, reason));
        }
        part.attached.clear();
        attachmentsChanged(part);
    }

    private static void stop(final Part part) {
        part.reading = false;
        part.generation++;
    }

    private void ring(final int partition) {
        final Part part = parts[partition];
        synchronized (part) {
            if (part.attached.isEmpty()) {
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

    /** Drops the feeds whose lease ran out, reads every attached partition, and sends each feed its positions. */
    void sweep(final long now) {
        final List<Feed> expired = new ArrayList<>();
        final List<Feed> live;
        synchronized (this) {
            for (final Iterator<Feed> it = feeds.values().iterator(); it.hasNext(); ) {
                final Feed feed = it.next();
                if (feed.leaseUntil < now) {
                    expired.add(feed);
                    it.remove();
                }
            }
            live = List.copyOf(feeds.values());
        }
        if (!expired.isEmpty()) {
            updateRingsFor();
            LOG.info(() -> expired.size() + " continuous-query feed(s) of " + name + " not renewed for " + MemberPush.LEASE_MS
                    + " ms: their clients left; no longer pushed to");
        }
        final Map<Feed, Positions> positions = new HashMap<>();
        for (final Part part : parts) {
            synchronized (part) {
                if (!expired.isEmpty() && part.attached.removeIf(a -> expired.contains(a.feed))) {
                    attachmentsChanged(part);
                }
                for (final Attachment a : part.attached) {
                    positions.computeIfAbsent(a.feed, f -> new Positions()).add(part.partition, a.generation, a.sent);
                }
            }
        }
        ringAll();
        for (final Feed feed : live) {
            final Positions p = positions.get(feed);
            if (p != null) {
                send(feed, p.message(name));
            }
        }
    }

    private static final class Positions {
        private final List<long[]> rows = new ArrayList<>();

        void add(final int partition, final int generation, final long sent) {
            rows.add(new long[]{partition, generation, sent});
        }

        PushMessage message(final String map) {
            final int n = rows.size();
            final int[] partitions = new int[n];
            final int[] generations = new int[n];
            final long[] sent = new long[n];
            for (int i = 0; i < n; i++) {
                partitions[i] = (int) rows.get(i)[0];
                generations[i] = (int) rows.get(i)[1];
                sent[i] = rows.get(i)[2];
            }
            return PushMessage.positions(map, partitions, generations, sent);
        }
    }

    /**
     * Local changes ring their partition's chain when they matter to an attached feed (the value
     * before or after passes one of the predicates: a read per change that no one wants would double
     * the partition threads' work); a cleared or evicted map rings them all. Events are not durable:
     * the sweep reads what a lost one would have rung for.
     */
    private final class Doorbell extends AnyChangeListener {
        @Override
        protected void changed(final EntryEvent<Object, Object> event) {
            final ChangeFilter filter = ringsFor;
            if (filter == null) {
                return;
            }
            boolean matters;
            try {
                matters = filter.passes(event.getOldValue(), event.getValue());
            } catch (final RuntimeException e) {
                matters = true; // let the read meet it (and its subscriber hear of it)
            }
            if (matters) {
                ring(member.getPartitionService().getPartition(event.getKey()).getPartitionId());
            }
        }

        @Override
        protected void allChanged() {
            ringAll();
        }
    }
}
