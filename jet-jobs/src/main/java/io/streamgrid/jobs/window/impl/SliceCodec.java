package io.streamgrid.jobs.window.impl;

import io.streamgrid.jobs.window.VarLongs;
import io.streamgrid.jobs.window.WindowAggregation;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * The snapshot encoding of one slice (key number → accumulator, {@link KeyNumbers}): its entries are
 * {@linkplain #add gathered} in any order, then written in number order, either as a bitmap of the
 * numbers followed by the accumulators, or — when the slice holds few of the numbers — as the
 * differences between successive numbers, each followed by its accumulator: the bitmap when its
 * words take at most a byte an entry, which the differences take at least.
 * Why: a slice usually holds most of a partition's keys, and its keys were most of its bytes (about
 * 2 bytes a key as differences in hash order, against an eighth of a byte as a bitmap bit); the
 * snapshot's size is what a snapshot costs in memory, on the backups and, with durable snapshots,
 * in Cassandra. Single-threaded; reused from slice to slice.
 */
final class SliceCodec<A> {
    private static final int GAPS = 0;
    private static final int BITMAP = 1;

    private final WindowAggregation<A> aggregation;
    private Object[] byNumber = new Object[64];
    private long[] bits = new long[1];
    private int count;
    private int lowest = Integer.MAX_VALUE;
    private int highest = -1;

    SliceCodec(final WindowAggregation<A> aggregation) {
        this.aggregation = aggregation;
    }

    /** Gathers one entry of the slice being encoded; each number at most once per slice. */
    void add(final int number, final A accumulator) {
        if (number >= byNumber.length) {
            final int capacity = Math.max(byNumber.length * 2, Integer.highestOneBit(number) * 2);
            byNumber = Arrays.copyOf(byNumber, capacity);
            bits = Arrays.copyOf(bits, capacity >>> 6);
        }
        byNumber[number] = accumulator;
        bits[number >>> 6] |= 1L << number;
        count++;
        lowest = Math.min(lowest, number);
        highest = Math.max(highest, number);
    }

    /** Writes the gathered slice and forgets it, also when writing fails. */
    void writeTo(final DataOutput out) throws IOException {
        try {
            VarLongs.writeUnsigned(out, count);
            if (count == 0) {
                return;
            }
            final int firstWord = lowest >>> 6;
            final int words = (highest >>> 6) - firstWord + 1;
            // A bitmap costs 8 bytes a word, differences at least a byte an entry.
            if ((long) words * Long.BYTES <= count) {
                out.writeByte(BITMAP);
                VarLongs.writeUnsigned(out, firstWord);
                VarLongs.writeUnsigned(out, words);
                for (int w = firstWord; w < firstWord + words; w++) {
                    out.writeLong(bits[w]);
                }
                for (int w = firstWord; w < firstWord + words; w++) {
                    for (long word = bits[w]; word != 0; word &= word - 1) {
                        aggregation.write(accumulator((w << 6) + Long.numberOfTrailingZeros(word)), out);
                    }
                }
            } else {
                out.writeByte(GAPS);
                int previous = -1;
                for (int w = firstWord; w < firstWord + words; w++) {
                    for (long word = bits[w]; word != 0; word &= word - 1) {
                        final int number = (w << 6) + Long.numberOfTrailingZeros(word);
                        VarLongs.writeUnsigned(out, number - previous - 1);
                        aggregation.write(accumulator(number), out);
                        previous = number;
                    }
                }
            }
        } finally {
            forget();
        }
    }

    @SuppressWarnings("unchecked")
    private A accumulator(final int number) {
        return (A) byNumber[number];
    }

    private void forget() {
        if (count > 0) {
            Arrays.fill(byNumber, lowest, highest + 1, null);
            Arrays.fill(bits, lowest >>> 6, (highest >>> 6) + 1, 0L);
        }
        count = 0;
        lowest = Integer.MAX_VALUE;
        highest = -1;
    }

    /** Reads a slice {@link #writeTo} wrote, calling {@code onEntry} for each entry in number order. */
    static <A> void read(final DataInput in, final WindowAggregation<A> aggregation, final Entry<A> onEntry)
            throws IOException {
        final long count = VarLongs.readUnsigned(in);
        if (count == 0) {
            return;
        }
        final int layout = in.readUnsignedByte();
        if (layout == BITMAP) {
            final long firstWord = VarLongs.readUnsigned(in);
            final long wordCount = VarLongs.readUnsigned(in);
            if (firstWord + wordCount > (1L << 25) || wordCount * Long.SIZE < count) { // numbers are ints
                throw new IOException("a window slice of " + count + " entries in a bitmap of " + wordCount
                        + " words from word " + firstWord + ": a damaged snapshot");
            }
            final long[] words = new long[(int) wordCount];
            for (int w = 0; w < words.length; w++) {
                words[w] = in.readLong();
            }
            long read = 0;
            for (int w = 0; w < words.length; w++) {
                for (long word = words[w]; word != 0; word &= word - 1) {
                    onEntry.accept((int) ((firstWord + w) << 6) + Long.numberOfTrailingZeros(word), aggregation.read(in));
                    read++;
                }
            }
            if (read != count) {
                throw new IOException("a window slice of " + count + " entries whose bitmap holds " + read
                        + ": a damaged snapshot");
            }
        } else if (layout == GAPS) {
            long number = -1;
            for (long e = 0; e < count; e++) {
                number += VarLongs.readUnsigned(in) + 1;
                if (number > Integer.MAX_VALUE) {
                    throw new IOException("a window slice refers to key number " + number + ": a damaged snapshot");
                }
                onEntry.accept((int) number, aggregation.read(in));
            }
        } else {
            throw new IOException("a window slice in layout " + layout + ", which this version does not write: a damaged snapshot");
        }
    }

    @FunctionalInterface
    interface Entry<A> {
        void accept(int number, A accumulator) throws IOException;
    }
}
