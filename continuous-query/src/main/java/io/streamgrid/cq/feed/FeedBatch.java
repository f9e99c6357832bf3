package io.streamgrid.cq.feed;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.DataSerializable;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Matching changes of one partition for one subscription, with the journal sequences they cover:
 * every change in {@code [from, next)} that matches the subscription's predicate (its old or new
 * value) is in the batch, in sequence order. Consecutive batches of one member for one partition
 * continue where the last ended, unless the member lost sequences (journal overwritten) or started
 * reading anew; a client that has not seen everything up to {@code from} reads the rest from the
 * journal.
 */
public final class FeedBatch implements DataSerializable {
    /** One change: its journal sequence, whether the entry left the result, its key and the value that matters (new, or old on leaving). */
    public record Change(long sequence, boolean leave, Object key, Object value) {
    }

    private int partition;
    private long from;
    private long next;
    private List<Change> changes;

    /** For deserialization. */
    public FeedBatch() {
    }

    public FeedBatch(final int partition, final long from, final long next, final List<Change> changes) {
        this.partition = partition;
        this.from = from;
        this.next = next;
        this.changes = List.copyOf(changes);
    }

    public int partition() {
        return partition;
    }

    public long from() {
        return from;
    }

    public long next() {
        return next;
    }

    public List<Change> changes() {
        return changes;
    }

    @Override
    public void writeData(final ObjectDataOutput out) throws IOException {
        out.writeInt(partition);
        out.writeLong(from);
        out.writeLong(next);
        out.writeInt(changes.size());
        for (final Change change : changes) {
            out.writeLong(change.sequence());
            out.writeBoolean(change.leave());
            out.writeObject(change.key());
            out.writeObject(change.value());
        }
    }

    @Override
    public void readData(final ObjectDataInput in) throws IOException {
        partition = in.readInt();
        from = in.readLong();
        next = in.readLong();
        final int size = in.readInt();
        final List<Change> read = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            read.add(new Change(in.readLong(), in.readBoolean(), in.readObject(), in.readObject()));
        }
        changes = List.copyOf(read);
    }

    @Override
    public String toString() {
        return "FeedBatch[partition " + partition + ", " + from + ".." + next + ", " + changes.size() + " changes]";
    }
}
