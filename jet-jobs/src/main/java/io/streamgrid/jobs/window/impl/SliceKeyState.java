package io.streamgrid.jobs.window.impl;

import org.agrona.collections.Long2LongHashMap;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * One key's bookkeeping in an {@link IncrementalSlidingWindowEngine}: its running window, how many
 * slices hold it, and — with allowed lateness — how many times each of its windows was emitted,
 * the sequence a correction carries.
 */
final class SliceKeyState<A> {
    /** From the engine's key numbers, for as long as the key has state. */
    final int number;
    /** The running window's value, null when no slice of the key is in it. */
    A running;
    int slicesInWindow;
    /** Slices holding this key: the key's state goes when none is left (and no sequence). */
    int retainedSlices;
    /** Update sequence by window end / slide, for corrections; null until the first with allowed lateness. */
    private Long2LongHashMap sequenceByEndIndex;

    SliceKeyState(final int number) {
        this.number = number;
    }

    /** Counts one more emission of the window ending at index {@code endIndex} (end / slide); returns its sequence, from 1. */
    int nextSequence(final long endIndex) {
        if (sequenceByEndIndex == null) {
            sequenceByEndIndex = new Long2LongHashMap(0);
        }
        final int sequence = (int) sequenceByEndIndex.get(endIndex) + 1;
        sequenceByEndIndex.put(endIndex, sequence);
        return sequence;
    }

    boolean hasSequences() {
        return sequenceByEndIndex != null && !sequenceByEndIndex.isEmpty();
    }

    /** Whether the key holds nothing any more: no slice, no sequence. */
    boolean isEmpty() {
        return retainedSlices == 0 && !hasSequences();
    }

    /** Forgets the sequences of windows ending at or before index {@code cutoffIndex}: they take no more corrections. */
    void dropSequencesTo(final long cutoffIndex) {
        if (sequenceByEndIndex == null) {
            return;
        }
        final Long2LongHashMap.KeyIterator ends = sequenceByEndIndex.keySet().iterator();
        while (ends.hasNext()) {
            if (ends.nextValue() <= cutoffIndex) {
                ends.remove();
            }
        }
    }

    /** Writes the sequences: their count, then each window's end index and sequence. */
    void writeSequences(final DataOutput out) throws IOException {
        out.writeInt(sequenceByEndIndex == null ? 0 : sequenceByEndIndex.size());
        if (sequenceByEndIndex == null) {
            return;
        }
        final Long2LongHashMap.EntryIterator entries = sequenceByEndIndex.entrySet().iterator();
        while (entries.hasNext()) {
            entries.next();
            out.writeLong(entries.getLongKey());
            out.writeInt((int) entries.getLongValue());
        }
    }

    /** Reads what {@link #writeSequences} wrote, in place of this key's sequences. */
    void readSequences(final DataInput in) throws IOException {
        sequenceByEndIndex = new Long2LongHashMap(0);
        final int sequences = in.readInt();
        for (int s = 0; s < sequences; s++) {
            sequenceByEndIndex.put(in.readLong(), in.readInt());
        }
    }
}
