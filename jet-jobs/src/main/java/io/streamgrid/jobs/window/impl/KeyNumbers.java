package io.streamgrid.jobs.window.impl;

import io.streamgrid.jobs.window.VarLongs;
import org.agrona.collections.IntArrayList;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;
import java.util.BitSet;

/**
 * A small number for every key an engine holds state for, stable while the key has state and given
 * to another key only after it is freed: a slice's keys are then written as a bitmap over these
 * numbers ({@link SliceCodec}) rather than as the keys themselves. Numbers stay below the largest
 * count of keys alive at once, since freed ones are given out first. Single-threaded, like the engine.
 */
final class KeyNumbers {
    private long[] keyByNumber = new long[64];
    private final BitSet live = new BitSet();
    /** Freed numbers, given out again before new ones. */
    private final IntArrayList free = new IntArrayList();
    /** Numbers below this have been given out at least once. */
    private int highWater;

    /** A number for {@code key}, which must not hold one already. */
    int take(final long key) {
        final int number = free.isEmpty() ? highWater++ : free.popInt();
        if (number >= keyByNumber.length) {
            keyByNumber = Arrays.copyOf(keyByNumber, keyByNumber.length * 2);
        }
        keyByNumber[number] = key;
        live.set(number);
        return number;
    }

    /** Gives {@code number} back: no slice may refer to it any more. */
    void free(final int number) {
        live.clear(number);
        free.addInt(number);
    }

    /** @throws IOException when {@code number} belongs to no key: a snapshot that does not fit together */
    long key(final int number) throws IOException {
        if (number < 0 || !live.get(number)) {
            throw new IOException("window state refers to key number " + number + ", which no key holds: a damaged snapshot");
        }
        return keyByNumber[number];
    }

    void clear() {
        live.clear();
        free.clear();
        highWater = 0;
    }

    /** Writes each live number with its key, in number order, the keys as differences. */
    void writeTo(final DataOutput out) throws IOException {
        VarLongs.writeUnsigned(out, highWater);
        VarLongs.writeUnsigned(out, live.cardinality());
        int previous = -1;
        long previousKey = 0;
        for (int number = live.nextSetBit(0); number >= 0; number = live.nextSetBit(number + 1)) {
            VarLongs.writeUnsigned(out, number - previous - 1);
            VarLongs.writeSigned(out, keyByNumber[number] - previousKey);
            previous = number;
            previousKey = keyByNumber[number];
        }
    }

    /**
     * Replaces the numbering with one {@link #writeTo} wrote, calling {@code onKey} for each
     * number and key in number order.
     */
    void readFrom(final DataInput in, final NumberedKey onKey) throws IOException {
        clear();
        final long bound = VarLongs.readUnsigned(in);
        final long count = VarLongs.readUnsigned(in);
        if (bound > Integer.MAX_VALUE || count > bound) {
            throw new IOException("window state numbers " + count + " keys below " + bound + ": a damaged snapshot");
        }
        highWater = (int) bound;
        if (keyByNumber.length < highWater) {
            keyByNumber = new long[highWater];
        }
        long number = -1;
        long key = 0;
        for (long k = 0; k < count; k++) {
            number += VarLongs.readUnsigned(in) + 1;
            key += VarLongs.readSigned(in);
            if (number >= highWater) {
                throw new IOException("window state numbers a key " + number + ", beyond its bound " + highWater + ": a damaged snapshot");
            }
            keyByNumber[(int) number] = key;
            live.set((int) number);
            onKey.accept((int) number, key);
        }
        for (int gap = live.previousClearBit(highWater - 1); gap >= 0; gap = live.previousClearBit(gap - 1)) {
            free.addInt(gap); // highest first, so that the lowest is given out first
        }
    }

    @FunctionalInterface
    interface NumberedKey {
        void accept(int number, long key);
    }
}
