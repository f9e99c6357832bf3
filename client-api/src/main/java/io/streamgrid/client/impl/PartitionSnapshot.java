package io.streamgrid.client.impl;

import com.hazelcast.internal.journal.EventJournalInitialSubscriberState;
import com.hazelcast.internal.journal.EventJournalReader;
import com.hazelcast.map.EventJournalMapEvent;
import com.hazelcast.map.IMap;
import com.hazelcast.ringbuffer.ReadResultSet;
import io.streamgrid.cq.ChangeFilter;
import io.streamgrid.cq.Where;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * What a subscription catches up from, for some partitions: a query of the map's entries inside the
 * predicate, taken between two journal tails per partition ({@code before}, {@code after}), and the
 * journal's changes between those tails — which may or may not be in the query's result, so
 * {@link DeltaMirror#catchUp} keeps, per key, only those after the queried state.
 *
 * @param current the query's keys and values
 * @param window  the changes after {@code before} up to {@code after}, in order per partition
 */
record PartitionSnapshot(Map<Object, Object> current, List<DeltaMirror.Change> window, long[] before, long[] after) {
    /** Takes the snapshot of {@code parts}; blocks until the query and the reads answer, throws when they fail. */
    static PartitionSnapshot take(final IMap<Object, Object> map, final EventJournalReader<EventJournalMapEvent<Object, Object>> journal,
                                  final ClientPartitions partitions, final Where where, final ChangeFilter filter, final int maxBatch,
                                  final Set<Integer> parts) {
        final long[] before = tails(journal, partitions, parts);
        final Map<Object, Object> current = new HashMap<>();
        for (final Map.Entry<Object, Object> entry : map.entrySet(partitions.query(parts, where))) {
            if (parts.contains(partitions.of(entry.getKey()))) {
                current.put(entry.getKey(), entry.getValue());
            }
        }
        final long[] after = tails(journal, partitions, parts);
        final List<DeltaMirror.Change> window = new ArrayList<>();
        for (final int p : parts) {
            long seq = before[p] + 1;
            while (seq <= after[p]) {
                final ReadResultSet<EventJournalMapEvent<Object, Object>> batch = join(
                        journal.readFromEventJournal(seq, 0, maxBatch, p, filter, null));
                for (int i = 0; i < batch.size(); i++) {
                    if (batch.getSequence(i) <= after[p]) {
                        final EventJournalMapEvent<Object, Object> event = batch.get(i);
                        window.add(new DeltaMirror.Change(event.getKey(), event.getOldValue(), event.getNewValue(), p,
                                batch.getSequence(i)));
                    }
                }
                if (batch.getNextSequenceToReadFrom() <= seq) {
                    break;
                }
                seq = batch.getNextSequenceToReadFrom();
            }
        }
        return new PartitionSnapshot(current, window, before, after);
    }

    /** The newest journal sequence of each of {@code parts} (indexed by partition). */
    private static long[] tails(final EventJournalReader<EventJournalMapEvent<Object, Object>> journal, final ClientPartitions partitions,
                                final Set<Integer> parts) {
        final long[] tails = new long[partitions.count()];
        final Map<Integer, CompletionStage<EventJournalInitialSubscriberState>> pending = new HashMap<>();
        for (final int p : parts) {
            pending.put(p, journal.subscribeToEventJournal(p));
        }
        pending.forEach((p, stage) -> tails[p] = join(stage).getNewestSequence());
        return tails;
    }

    private static <T> T join(final CompletionStage<T> stage) {
        return stage.toCompletableFuture().join();
    }
}
