package io.streamgrid.cq.feed;

import com.hazelcast.nio.ObjectDataInput;
import com.hazelcast.nio.ObjectDataOutput;
import com.hazelcast.nio.serialization.DataSerializable;

import java.io.IOException;

/**
 * A member's periodic word on the partitions it reads for a subscription: for each, where its
 * last batch to this subscription ended ({@code sent}) and how far it has read ({@code read}).
 * Every matching change before {@code sent} was in a batch, and no change in {@code [sent, read)}
 * matched. A client that has not seen everything before {@code sent} lost a batch; one that has
 * may count everything before {@code read} as seen.
 */
public final class FeedMark implements DataSerializable {
    private int[] partitions;
    private long[] sent;
    private long[] read;

    /** For deserialization. */
    public FeedMark() {
    }

    public FeedMark(final int[] partitions, final long[] sent, final long[] read) {
        this.partitions = partitions.clone();
        this.sent = sent.clone();
        this.read = read.clone();
    }

    public int size() {
        return partitions.length;
    }

    public int partition(final int i) {
        return partitions[i];
    }

    public long sent(final int i) {
        return sent[i];
    }

    public long read(final int i) {
        return read[i];
    }

    @Override
    public void writeData(final ObjectDataOutput out) throws IOException {
        out.writeIntArray(partitions);
        out.writeLongArray(sent);
        out.writeLongArray(read);
    }

    @Override
    public void readData(final ObjectDataInput in) throws IOException {
        partitions = in.readIntArray();
        sent = in.readLongArray();
        read = in.readLongArray();
    }
}
