package io.streamgrid.jobs.pipeline.impl;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * A partition's events held until the watermark reaches them, for a keyed job that sees its
 * events in event-time order ({@code KeyedJob.Builder.inEventTimeOrder}). Released earliest first:
 * by event time, then the input (the schema's place in the job), then arrival.
 *
 * <p>Why one buffer per partition and not a copy per key with a timer: that was the pattern job's
 * cost — an object per event and a key's timer registered and fired per event. Here an event's
 * bytes go into a slot of one byte array (slots are reused; no allocation in steady state) and a
 * binary heap of primitive arrays orders them; data that arrives in order costs one comparison to
 * add. Single-threaded, like its partition.
 *
 * <p>Use: {@link #add}; while {@link #hasDue} holds, {@link #takeFirst} a slot, read it through
 * {@link #buffer()}, {@link #offset}, {@link #length}, {@link #input}, {@link #logIndex}, then
 * {@link #free} it.
 */
final class HeldEvents {
    private static final int INPUT_SHIFT = 48;
    private static final long ARRIVAL_MASK = (1L << INPUT_SHIFT) - 1;

    // The heap, ordered by (time, tie); tie = input << 48 | arrival.
    private long[] times = new long[64];
    private long[] ties = new long[64];
    private int[] heapSlots = new int[64];
    private int size;

    // Per slot: the event's bytes at slot * slotWidth, its length and its index in its log.
    private int slotWidth;
    private int slotCount;
    private byte[] bytes = new byte[0];
    private final UnsafeBuffer buffer = new UnsafeBuffer(bytes);
    private int[] lengths = new int[0];
    private int[] inputs = new int[0];
    private long[] logIndexes = new long[0];
    private int[] freeSlots = new int[0];
    private int freeCount;
    private long arrivals;

    /** Holds a copy of the event at {@code offset} in {@code source}: {@code input} is its schema's place in the job. */
    void add(final long time, final int input, final long logIndex, final DirectBuffer source, final int offset, final int length) {
        hold(time, (long) input << INPUT_SHIFT | (arrivals++ & ARRIVAL_MASK), logIndex, source, offset, length);
    }

    private void hold(final long time, final long tie, final long logIndex, final DirectBuffer source, final int offset, final int length) {
        if (length > slotWidth) {
            widenSlots(length);
        }
        if (freeCount == 0) {
            addSlots();
        }
        final int slot = freeSlots[--freeCount];
        source.getBytes(offset, bytes, slot * slotWidth, length);
        lengths[slot] = length;
        inputs[slot] = (int) (tie >>> INPUT_SHIFT);
        logIndexes[slot] = logIndex;
        push(time, tie, slot);
    }

    /** Whether an event at or before {@code upTo} is held. */
    boolean hasDue(final long upTo) {
        return size > 0 && times[0] <= upTo;
    }

    int size() {
        return size;
    }

    /** The earliest event's time; only when not empty. */
    long peekTime() {
        return times[0];
    }

    /** Removes the earliest event from the order and returns its slot, valid until {@link #free}. */
    int takeFirst() {
        final int slot = heapSlots[0];
        size--;
        if (size > 0) {
            final long time = times[size];
            final long tie = ties[size];
            final int last = heapSlots[size];
            siftDown(time, tie, last);
        }
        return slot;
    }

    UnsafeBuffer buffer() {
        return buffer;
    }

    int offset(final int slot) {
        return slot * slotWidth;
    }

    int length(final int slot) {
        return lengths[slot];
    }

    int input(final int slot) {
        return inputs[slot];
    }

    long logIndex(final int slot) {
        return logIndexes[slot];
    }

    void free(final int slot) {
        freeSlots[freeCount++] = slot;
    }

    private void clear() {
        size = 0;
        freeCount = 0;
        for (int slot = slotCount - 1; slot >= 0; slot--) {
            freeSlots[freeCount++] = slot;
        }
        arrivals = 0;
    }

    /** Writes the held events (their release order follows from what is written). */
    void write(final DataOutput out) throws IOException {
        out.writeLong(arrivals);
        out.writeInt(size);
        for (int i = 0; i < size; i++) {
            final int slot = heapSlots[i];
            out.writeLong(times[i]);
            out.writeLong(ties[i]);
            out.writeLong(logIndexes[slot]);
            out.writeInt(lengths[slot]);
            out.write(bytes, slot * slotWidth, lengths[slot]);
        }
    }

    /** Replaces the held events with what {@link #write} wrote. */
    void read(final DataInput in) throws IOException {
        clear();
        final long savedArrivals = in.readLong();
        final int count = in.readInt();
        final UnsafeBuffer scratch = new UnsafeBuffer(new byte[0]);
        for (int i = 0; i < count; i++) {
            final long time = in.readLong();
            final long tie = in.readLong();
            final long logIndex = in.readLong();
            final byte[] event = new byte[in.readInt()];
            in.readFully(event);
            scratch.wrap(event);
            hold(time, tie, logIndex, scratch, 0, event.length);
        }
        arrivals = savedArrivals;
    }

    private void push(final long time, final long tie, final int slot) {
        if (size == times.length) {
            times = Arrays.copyOf(times, size * 2);
            ties = Arrays.copyOf(ties, size * 2);
            heapSlots = Arrays.copyOf(heapSlots, size * 2);
        }
        int at = size++;
        while (at > 0) {
            final int parent = (at - 1) >>> 1;
            if (!before(time, tie, times[parent], ties[parent])) {
                break;
            }
            move(parent, at);
            at = parent;
        }
        place(at, time, tie, slot);
    }

    /** Puts (time, tie, slot) into the hole at the root, moving earlier children up. */
    private void siftDown(final long time, final long tie, final int slot) {
        int at = 0;
        final int half = size >>> 1;
        while (at < half) {
            int child = 2 * at + 1;
            final int right = child + 1;
            if (right < size && before(times[right], ties[right], times[child], ties[child])) {
                child = right;
            }
            if (!before(times[child], ties[child], time, tie)) {
                break;
            }
            move(child, at);
            at = child;
        }
        place(at, time, tie, slot);
    }

    private static boolean before(final long time, final long tie, final long otherTime, final long otherTie) {
        return time < otherTime || time == otherTime && tie < otherTie;
    }

    private void move(final int from, final int to) {
        times[to] = times[from];
        ties[to] = ties[from];
        heapSlots[to] = heapSlots[from];
    }

    private void place(final int at, final long time, final long tie, final int slot) {
        times[at] = time;
        ties[at] = tie;
        heapSlots[at] = slot;
    }

    /** Doubles the slots (at least 64), all new ones free. */
    private void addSlots() {
        final int more = Math.max(64, slotCount);
        final int total = slotCount + more;
        bytes = Arrays.copyOf(bytes, total * slotWidth);
        buffer.wrap(bytes);
        lengths = Arrays.copyOf(lengths, total);
        inputs = Arrays.copyOf(inputs, total);
        logIndexes = Arrays.copyOf(logIndexes, total);
        freeSlots = Arrays.copyOf(freeSlots, total);
        for (int slot = total - 1; slot >= slotCount; slot--) {
            freeSlots[freeCount++] = slot;
        }
        slotCount = total;
    }

    /** Makes every slot at least {@code length} bytes wide (a record of a later schema version is longer), keeping the held bytes. */
    private void widenSlots(final int length) {
        final int width = Math.max(length, slotWidth * 2);
        final byte[] wider = new byte[slotCount * width];
        for (int slot = 0; slot < slotCount; slot++) {
            System.arraycopy(bytes, slot * slotWidth, wider, slot * width, slotWidth);
        }
        bytes = wider;
        buffer.wrap(bytes);
        slotWidth = width;
    }
}
