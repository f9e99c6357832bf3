package io.streamgrid.jobs.join;

import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

/**
 * The events of one side of a join kept for one key, in arrival order: their record bytes one after
 * another in one array, with each one's event time and expiry beside — a few arrays per key, not an
 * object per event.
 */
final class JoinSide {
    private byte[] bytes = new byte[0];
    private int used;
    private long[] times = new long[0];
    private long[] expiries = new long[0];
    private int[] offsets = new int[0];
    private int[] lengths = new int[0];
    private int count;
    /** Over {@link #bytes}; re-wrapped when that array grows. */
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
        times[count] = time;
        expiries[count] = expiry;
        offsets[count] = used;
        lengths[count] = recordLength;
        used += recordLength;
        count++;
    }

    /** Drops the events whose expiry is at or before {@code watermark}, keeping the others in order. */
    void expire(final long watermark) {
        int kept = 0;
        int keptBytes = 0;
        for (int i = 0; i < count; i++) {
            if (expiries[i] > watermark) {
                System.arraycopy(bytes, offsets[i], bytes, keptBytes, lengths[i]);
                times[kept] = times[i];
                expiries[kept] = expiries[i];
                offsets[kept] = keptBytes;
                lengths[kept] = lengths[i];
                keptBytes += lengths[i];
                kept++;
            }
        }
        count = kept;
        used = keptBytes;
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

    static JoinSide read(final DataInput in) throws IOException {
        final JoinSide side = new JoinSide();
        final int count = in.readInt();
        final byte[] record = new byte[64];
        for (int i = 0; i < count; i++) {
            final long time = in.readLong();
            final long expiry = in.readLong();
            final int length = in.readInt();
            final byte[] into = length <= record.length ? record : new byte[length];
            in.readFully(into, 0, length);
            side.add(new UnsafeBuffer(into), 0, length, time, expiry);
        }
        return side;
    }
}
