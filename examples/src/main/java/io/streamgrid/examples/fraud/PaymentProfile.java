package io.streamgrid.examples.fraud;

import io.streamgrid.jobs.keyed.StateCodec;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * A user's state in the scoring job: the recent payments (time and amount, in log order) the
 * rolling features are computed from, the time of the previous payment, and the payments waiting
 * for their outcome with the features and score they had. Mutated in place, one user at a time.
 * Public so that other pipelines can keep the same state (the perf module's plain-Jet reference).
 */
public final class PaymentProfile {
    private long[] times = new long[8];
    private double[] amounts = new double[8];
    private int size;
    /** Event time of the user's previous payment in log order; Long.MIN_VALUE before the first. */
    private long previous = Long.MIN_VALUE;
    /** The newest payment time seen. */
    private long newest = Long.MIN_VALUE;
    private final List<Pending> pending = new ArrayList<>(2);

    /** A payment waiting for its outcome. */
    public record Pending(long txn, long ts, Features features, double score, long modelVersion) {
    }

    /** The features of a payment at {@code time}, from the payments before it (see {@link Features}). */
    public Features features(final long time, final double amount, final int category) {
        double sum = 0;
        int hour = 0;
        int tenMinutes = 0;
        for (int i = 0; i < size; i++) {
            final long t = times[i];
            if (t <= time && t >= time - Features.HOUR_MS) {
                sum += amounts[i];
                hour++;
                if (t >= time - Features.TEN_MINUTES_MS) {
                    tenMinutes++;
                }
            }
        }
        final long since = previous == Long.MIN_VALUE ? -1 : Math.max(0, time - previous);
        return new Features(amount, hour == 0 ? 0 : sum / hour, tenMinutes, since, category);
    }

    /** Remembers a payment; forgets those more than {@code horizonMs} before the newest (no later payment's window reaches them). */
    public void add(final long time, final double amount, final long horizonMs) {
        newest = Math.max(newest, time);
        trim(newest - horizonMs);
        if (size == times.length) {
            times = java.util.Arrays.copyOf(times, size * 2);
            amounts = java.util.Arrays.copyOf(amounts, size * 2);
        }
        times[size] = time;
        amounts[size] = amount;
        size++;
        previous = time;
    }

    /** Forgets the payments before {@code keepFrom}, keeping the others' order. */
    public void trim(final long keepFrom) {
        int kept = 0;
        for (int i = 0; i < size; i++) {
            if (times[i] >= keepFrom) {
                times[kept] = times[i];
                amounts[kept] = amounts[i];
                kept++;
            }
        }
        size = kept;
    }

    /** The pending payment {@code txn}, removed; null when none waits. */
    public Pending takePending(final long txn) {
        for (int i = 0; i < pending.size(); i++) {
            if (pending.get(i).txn() == txn) {
                return pending.remove(i);
            }
        }
        return null;
    }

    /** The payments waiting for their outcome, oldest first; mutable. */
    public List<Pending> pending() {
        return pending;
    }

    static StateCodec<PaymentProfile> codec() {
        return new Codec();
    }

    private static final class Codec implements StateCodec<PaymentProfile> {
        private static final int FORMAT = 1;

        @Override
        public void write(final PaymentProfile p, final DataOutput out) throws IOException {
            out.writeByte(FORMAT);
            out.writeLong(p.previous);
            out.writeLong(p.newest);
            out.writeInt(p.size);
            for (int i = 0; i < p.size; i++) {
                out.writeLong(p.times[i]);
                out.writeDouble(p.amounts[i]);
            }
            out.writeInt(p.pending().size());
            for (final Pending w : p.pending) {
                out.writeLong(w.txn());
                out.writeLong(w.ts());
                out.writeDouble(w.score());
                out.writeLong(w.modelVersion());
                final Features f = w.features();
                out.writeDouble(f.amount());
                out.writeDouble(f.avgAmount1h());
                out.writeInt(f.count10m());
                out.writeLong(f.sincePreviousMs());
                out.writeInt(f.merchantCategory());
            }
        }

        @Override
        public PaymentProfile read(final DataInput in) throws IOException {
            final int format = in.readByte();
            if (format != FORMAT) {
                throw new IOException("payment profile of format " + format + ", this build reads " + FORMAT);
            }
            final PaymentProfile p = new PaymentProfile();
            p.previous = in.readLong();
            p.newest = in.readLong();
            final int size = in.readInt();
            p.times = new long[Math.max(8, size)];
            p.amounts = new double[Math.max(8, size)];
            for (int i = 0; i < size; i++) {
                p.times[i] = in.readLong();
                p.amounts[i] = in.readDouble();
            }
            p.size = size;
            final int waiting = in.readInt();
            for (int i = 0; i < waiting; i++) {
                final long txn = in.readLong();
                final long ts = in.readLong();
                final double score = in.readDouble();
                final long version = in.readLong();
                p.pending().add(new Pending(txn, ts, new Features(in.readDouble(), in.readDouble(), in.readInt(), in.readLong(),
                        in.readInt()), score, version));
            }
            return p;
        }
    }
}
