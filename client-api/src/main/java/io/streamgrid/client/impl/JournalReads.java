package io.streamgrid.client.impl;

import com.hazelcast.ringbuffer.ReadResultSet;

/**
 * How every reader of the journals (a subscription's own reads, a client feed's shared reads, a
 * member's pushing reads) judges the answer of a read that started at a sequence: where the next
 * read starts, and whether the changes from there on can still be read in order.
 */
public final class JournalReads {
    private JournalReads() {
    }

    /** Where the read after {@code batch} starts: an empty read reports 0 (Hazelcast never sets it), so stay where it started. */
    public static long next(final long sequence, final ReadResultSet<?> batch) {
        return batch.readCount() == 0 ? sequence : batch.getNextSequenceToReadFrom();
    }

    /**
     * Why the partition's changes from {@code sequence} on cannot be read in order — its journal went
     * back (Hazelcast moves a read beyond the newest event back to just after it: a new cluster, or
     * a new primary that never received the tail read before), or overwrote changes before they were
     * read — or null when the answer continues from {@code sequence}.
     */
    public static String trouble(final int partition, final long sequence, final ReadResultSet<?> batch) {
        if (batch.readCount() == 0) {
            return null;
        }
        // What was read, filtered or not, began at next - readCount (the filter may have passed none of it).
        final long firstRead = batch.getNextSequenceToReadFrom() - batch.readCount();
        if (firstRead < sequence) {
            return "the journal of partition " + partition + " went back from sequence " + sequence + " to " + firstRead
                    + " (a new primary without the changes read before, or a new cluster)";
        }
        if (firstRead > sequence) {
            return (firstRead - sequence) + " journal events overwritten before they were read";
        }
        return null;
    }
}
