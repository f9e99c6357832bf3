package io.streamgrid.perf.jmh;

import io.streamgrid.jobs.keyed.StateCodec;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

import java.io.ByteArrayInputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * JMH: a key's state written to and read from a snapshot by a hand-written {@link StateCodec} and by
 * the derived one ({@link StateCodec#derived}), for two states shaped as the examples keep them —
 * the fraud job's payment profile (arrays filled in place, a list of records holding a record) and
 * the recommendations job's click profile (fixed arrays and counters). Run by
 * {@link io.streamgrid.perf.bench.StateCodecsBench}. Writes go to a reused buffer as the runtime's
 * snapshot output does; reads come from a {@link DataInputStream}, as the runtime restores.
 */
public class StateCodecs {
    /** A fraud profile: recent payments (times, amounts: capacity 8, six used), two times, payments awaiting their outcome. */
    public static final class Payments {
        long[] times = new long[8];
        double[] amounts = new double[8];
        int size;
        long previous = Long.MIN_VALUE;
        long newest = Long.MIN_VALUE;
        final List<Pending> pending = new ArrayList<>(2);

        Payments() {
        }
    }

    public record Features(double amount, double avgAmount1h, int count10m, long sincePreviousMs, int merchantCategory) {
    }

    public record Pending(long txn, long ts, Features features, double score, long modelVersion) {
    }

    /** A click profile: affinity per category (20), the last items (a ring of 16), session counters. */
    public static final class Clicks {
        double[] affinity = new double[20];
        long[] recent = new long[16];
        int recentCount;
        int recentNext;
        long sessionStart;
        int sessionViews;
        long lastEvent = Long.MIN_VALUE;
        long clicks;

        Clicks() {
        }
    }

    /** The payments codec as the fraud example writes it by hand: a format byte, the used part of the arrays. */
    static final class PaymentsCodec implements StateCodec<Payments> {
        @Override
        public void write(final Payments p, final DataOutput out) throws IOException {
            out.writeByte(1);
            out.writeLong(p.previous);
            out.writeLong(p.newest);
            out.writeInt(p.size);
            for (int i = 0; i < p.size; i++) {
                out.writeLong(p.times[i]);
                out.writeDouble(p.amounts[i]);
            }
            out.writeInt(p.pending.size());
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
        public Payments read(final DataInput in) throws IOException {
            if (in.readByte() != 1) {
                throw new IOException("unknown format");
            }
            final Payments p = new Payments();
            p.previous = in.readLong();
            p.newest = in.readLong();
            p.size = in.readInt();
            p.times = new long[Math.max(8, p.size)];
            p.amounts = new double[p.times.length];
            for (int i = 0; i < p.size; i++) {
                p.times[i] = in.readLong();
                p.amounts[i] = in.readDouble();
            }
            final int pending = in.readInt();
            for (int i = 0; i < pending; i++) {
                final long txn = in.readLong();
                final long ts = in.readLong();
                final double score = in.readDouble();
                final long version = in.readLong();
                final Features f = new Features(in.readDouble(), in.readDouble(), in.readInt(), in.readLong(), in.readInt());
                p.pending.add(new Pending(txn, ts, f, score, version));
            }
            return p;
        }
    }

    /** The clicks codec as the recommendations example writes it by hand: the arrays' contents, then the counters. */
    static final class ClicksCodec implements StateCodec<Clicks> {
        @Override
        public void write(final Clicks p, final DataOutput out) throws IOException {
            for (final double a : p.affinity) {
                out.writeDouble(a);
            }
            for (final long item : p.recent) {
                out.writeLong(item);
            }
            out.writeInt(p.recentCount);
            out.writeInt(p.recentNext);
            out.writeLong(p.sessionStart);
            out.writeInt(p.sessionViews);
            out.writeLong(p.lastEvent);
            out.writeLong(p.clicks);
        }

        @Override
        public Clicks read(final DataInput in) throws IOException {
            final Clicks p = new Clicks();
            for (int c = 0; c < p.affinity.length; c++) {
                p.affinity[c] = in.readDouble();
            }
            for (int i = 0; i < p.recent.length; i++) {
                p.recent[i] = in.readLong();
            }
            p.recentCount = in.readInt();
            p.recentNext = in.readInt();
            p.sessionStart = in.readLong();
            p.sessionViews = in.readInt();
            p.lastEvent = in.readLong();
            p.clicks = in.readLong();
            return p;
        }
    }

    @State(Scope.Thread)
    public static class Subjects {
        final StateCodec<Payments> paymentsByHand = new PaymentsCodec();
        final StateCodec<Payments> paymentsDerived = StateCodec.derived(Payments.class);
        final StateCodec<Clicks> clicksByHand = new ClicksCodec();
        final StateCodec<Clicks> clicksDerived = StateCodec.derived(Clicks.class);
        final Payments payments = new Payments();
        final Clicks clicks = new Clicks();
        final Output output = new Output();
        byte[] paymentsByHandBytes;
        byte[] paymentsDerivedBytes;
        byte[] clicksByHandBytes;
        byte[] clicksDerivedBytes;

        @Setup(Level.Trial)
        public void fill() throws IOException {
            for (int i = 0; i < 6; i++) {
                payments.times[i] = 1_767_225_600_000L + i * 60_000L;
                payments.amounts[i] = 12.5 * (i + 1);
            }
            payments.size = 6;
            payments.previous = payments.times[5];
            payments.newest = payments.times[5];
            payments.pending.add(new Pending(7, payments.newest, new Features(40, 25, 2, 60_000, 5411), 0.12, 3));
            for (int c = 0; c < clicks.affinity.length; c++) {
                clicks.affinity[c] = c * 0.37;
            }
            for (int i = 0; i < clicks.recent.length; i++) {
                clicks.recent[i] = 1_000 + i;
            }
            clicks.recentCount = 16;
            clicks.recentNext = 3;
            clicks.sessionStart = 1_767_225_600_000L;
            clicks.sessionViews = 11;
            clicks.lastEvent = 1_767_225_660_000L;
            clicks.clicks = 42;
            paymentsByHandBytes = bytes(paymentsByHand, payments);
            paymentsDerivedBytes = bytes(paymentsDerived, payments);
            clicksByHandBytes = bytes(clicksByHand, clicks);
            clicksDerivedBytes = bytes(clicksDerived, clicks);
            checkEqual(Arrays.equals(bytes(paymentsByHand, paymentsDerived.read(input(paymentsDerivedBytes))), paymentsByHandBytes),
                    "payments");
            checkEqual(Arrays.equals(bytes(clicksByHand, clicksDerived.read(input(clicksDerivedBytes))), clicksByHandBytes), "clicks");
        }

        private <S> byte[] bytes(final StateCodec<S> codec, final S state) throws IOException {
            output.reset();
            codec.write(state, output);
            return output.copy();
        }

        private static void checkEqual(final boolean equal, final String state) {
            if (!equal) {
                throw new IllegalStateException("the derived codec's " + state + " do not read back equal to the hand-written one's");
            }
        }
    }

    static DataInputStream input(final byte[] bytes) {
        return new DataInputStream(new ByteArrayInputStream(bytes));
    }

    @Benchmark
    public int paymentsWriteByHand(final Subjects s) throws IOException {
        s.output.reset();
        s.paymentsByHand.write(s.payments, s.output);
        return s.output.length();
    }

    @Benchmark
    public int paymentsWriteDerived(final Subjects s) throws IOException {
        s.output.reset();
        s.paymentsDerived.write(s.payments, s.output);
        return s.output.length();
    }

    @Benchmark
    public Payments paymentsReadByHand(final Subjects s) throws IOException {
        return s.paymentsByHand.read(input(s.paymentsByHandBytes));
    }

    @Benchmark
    public Payments paymentsReadDerived(final Subjects s) throws IOException {
        return s.paymentsDerived.read(input(s.paymentsDerivedBytes));
    }

    @Benchmark
    public int clicksWriteByHand(final Subjects s) throws IOException {
        s.output.reset();
        s.clicksByHand.write(s.clicks, s.output);
        return s.output.length();
    }

    @Benchmark
    public int clicksWriteDerived(final Subjects s) throws IOException {
        s.output.reset();
        s.clicksDerived.write(s.clicks, s.output);
        return s.output.length();
    }

    @Benchmark
    public Clicks clicksReadByHand(final Subjects s) throws IOException {
        return s.clicksByHand.read(input(s.clicksByHandBytes));
    }

    @Benchmark
    public Clicks clicksReadDerived(final Subjects s) throws IOException {
        return s.clicksDerived.read(input(s.clicksDerivedBytes));
    }

    /** A reusable big-endian byte buffer as a {@link DataOutput}, as the runtime's snapshot output is. */
    static final class Output implements DataOutput {
        private byte[] bytes = new byte[1024];
        private int length;

        void reset() {
            length = 0;
        }

        int length() {
            return length;
        }

        byte[] copy() {
            return Arrays.copyOf(bytes, length);
        }

        private void ensure(final int more) {
            if (length + more > bytes.length) {
                bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, length + more));
            }
        }

        @Override
        public void write(final int b) {
            ensure(1);
            bytes[length++] = (byte) b;
        }

        @Override
        public void write(final byte[] b) {
            write(b, 0, b.length);
        }

        @Override
        public void write(final byte[] b, final int off, final int len) {
            ensure(len);
            System.arraycopy(b, off, bytes, length, len);
            length += len;
        }

        @Override
        public void writeBoolean(final boolean v) {
            write(v ? 1 : 0);
        }

        @Override
        public void writeByte(final int v) {
            write(v);
        }

        @Override
        public void writeShort(final int v) {
            ensure(2);
            bytes[length++] = (byte) (v >>> 8);
            bytes[length++] = (byte) v;
        }

        @Override
        public void writeChar(final int v) {
            writeShort(v);
        }

        @Override
        public void writeInt(final int v) {
            ensure(4);
            for (int shift = 24; shift >= 0; shift -= 8) {
                bytes[length++] = (byte) (v >>> shift);
            }
        }

        @Override
        public void writeLong(final long v) {
            ensure(8);
            for (int shift = 56; shift >= 0; shift -= 8) {
                bytes[length++] = (byte) (v >>> shift);
            }
        }

        @Override
        public void writeFloat(final float v) {
            writeInt(Float.floatToIntBits(v));
        }

        @Override
        public void writeDouble(final double v) {
            writeLong(Double.doubleToLongBits(v));
        }

        @Override
        public void writeBytes(final String s) {
            write(s.getBytes(StandardCharsets.ISO_8859_1));
        }

        @Override
        public void writeChars(final String s) {
            for (int i = 0; i < s.length(); i++) {
                writeChar(s.charAt(i));
            }
        }

        @Override
        public void writeUTF(final String s) {
            final byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
            writeShort(utf8.length);
            write(utf8);
        }
    }
}
