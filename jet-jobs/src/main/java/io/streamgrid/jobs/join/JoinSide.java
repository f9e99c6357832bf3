package io.streamgrid.jobs.join;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * The events of one side of a join kept for one key, sorted by event time (ties in arrival order):
 * their record bytes in one array, with each one's time, expiry, place and length in arrays beside —
 * a few arrays per key, not an object per event. Sorted, so the partners of an arriving event are a
 * range found by binary search, and the expired ones a prefix (an event's expiry grows with its
 * time). Events arrive nearly in time order, so an insertion moves few entries.
 */
final class JoinSide {
    private byte[] bytes = new byte[0];
    private int used;
    private long[] times = new long[0];
    private long[] expiries = new long[0];
    private int[] offsets = new int[0];
    private int[] lengths = new int[0];
    private int count;
    /** Over {@link #bytes}; re-wrapped when that array is replaced. */
    private final UnsafeBuffer view = new UnsafeBuffer(bytes);

    int count() {
        return count;
    }

    long time(final int index) {
        return times[index];
    }

    int offset(final int index) {
        return offsets[index];
    }

    int length(final int index) {
        return lengths[index];
    }

    /** The bytes of every kept record, at {@link #offset}. */
    DirectBuffer buffer() {
        return view;
    }

    /** The index of the first kept event at or after {@code time} ({@link #count()} when none is). */
    int firstAtOrAfter(final long time) {
        int low = 0;
        int high = count;
        while (low < high) {
            final int middle = (low + high) >>> 1;
            if (times[middle] < time) {
                low = middle + 1;
            } else {
                high = middle;
            }
        }
        return low;
    }

    void add(final DirectBuffer record, final int recordOffset, final int recordLength, final long time, final long expiry) {
        if (count == times.length) {
            final int capacity = Math.max(4, count * 2);
            times = Arrays.copyOf(times, capacity);
            expiries = Arrays.copyOf(expiries, capacity);
            offsets = Arrays.copyOf(offsets, capacity);
            lengths = Arrays.copyOf(lengths, capacity);
        }
        if (used + recordLength > bytes.length) {
            bytes = Arrays.copyOf(bytes, Math.max(used + recordLength, bytes.length * 2));
            view.wrap(bytes);
        }
        record.getBytes(recordOffset, bytes, used, recordLength);
        int at = count;
        while (at > 0 && times[at - 1] > time) {
            at--;
        }
        if (at < count) {
            System.arraycopy(times, at, times, at + 1, count - at);
            System.arraycopy(expiries, at, expiries, at + 1, count - at);
            System.arraycopy(offsets, at, offsets, at + 1, count - at);
            System.arraycopy(lengths, at, lengths, at + 1, count - at);
        }
        times[at] = time;
        expiries[at] = expiry;
        offsets[at] = used;
        lengths[at] = recordLength;
        used += recordLength;
        count++;
    }

    /** Drops the events whose expiry is at or before {@code watermark} (a prefix), moving the others' bytes together. */
    void expire(final long watermark) {
        int expired = 0;
        while (expired < count && expiries[expired] <= watermark) {
            expired++;
        }
        if (expired == 0) {
            return;
        }
        final int kept = count - expired;
        final byte[] keptBytes = new byte[Math.max(16, used / 2)];
        int at = 0;
        byte[] into = keptBytes;
        for (int i = 0; i < kept; i++) {
            final int from = expired + i;
            if (at + lengths[from] > into.length) {
                into = Arrays.copyOf(into, Math.max(at + lengths[from], into.length * 2));
            }
            System.arraycopy(bytes, offsets[from], into, at, lengths[from]);
            times[i] = times[from];
            expiries[i] = expiries[from];
            offsets[i] = at;
            lengths[i] = lengths[from];
            at += lengths[from];
        }
        bytes = into;
        view.wrap(bytes);
        used = at;
        count = kept;
    }

    void write(final DataOutput out) throws IOException {
        out.writeInt(count);
        for (int i = 0; i < count; i++) {
            out.writeLong(times[i]);
            out.writeLong(expiries[i]);
            out.writeInt(lengths[i]);
            out.write(bytes, offsets[i], lengths[i]);
        }
    }

    /** Reads what {@link #write} wrote (in time order, so each is appended at the end). */
    static JoinSide read(final DataInput in) throws IOException {
        final JoinSide side = new JoinSide();
        final int count = in.readInt();
        final UnsafeBuffer record = new UnsafeBuffer(new byte[0]);
        for (int i = 0; i < count; i++) {
            final long time = in.readLong();
            final long expiry = in.readLong();
            final byte[] bytes = new byte[in.readInt()];
            in.readFully(bytes);
            record.wrap(bytes);
            side.add(record, 0, bytes.length, time, expiry);
        }
        return side;
    }
}
