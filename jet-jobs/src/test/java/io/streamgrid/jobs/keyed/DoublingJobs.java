package io.streamgrid.jobs.keyed;

import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A pair of keyed jobs for tests of emitted events: {@code doubler} reads {@code amount} and emits
 * each amount doubled into {@code doubled}; {@code doubled-totals} reads that and keeps per account
 * the events read and their sum in {@link #TOTALS} as "count/sum". The oracle of a stream of
 * amounts is therefore per account: count and twice the sum.
 */
public final class DoublingJobs {
    private DoublingJobs() {
    }

    public static final EventSchema AMOUNT = EventSchema.builder("amount").longKey("account").eventTime("ts").int64("cents").build();
    public static final EventSchema DOUBLED = EventSchema.builder("doubled").longKey("account").eventTime("ts").int64("cents").build();
    public static final String TOTALS = "state.doubled-totals";
    public static final long START = 1_767_225_600_000L;
    /** Emitted events after which the emitting job throws once (0: never): a failure restored from the last snapshot. */
    public static final AtomicLong FAIL_AFTER = new AtomicLong();
    public static final AtomicLong EMITTED = new AtomicLong();

    /** Emits each amount doubled, under the same account and time. */
    public static final class Doubler implements KeyedFunction<long[]> {
        @Override
        public void onEvent(final SchemaRecord event, final KeyedContext<long[]> context) {
            final SchemaRecord out = context.newEvent(DOUBLED);
            out.setLong(0, context.longKey()).setTimestamp(1, context.time()).setLong(2, 2 * event.getLong(2));
            context.emit(out);
            final long failAfter = FAIL_AFTER.get();
            if (EMITTED.incrementAndGet() == failAfter && FAIL_AFTER.compareAndSet(failAfter, 0)) {
                throw new IllegalStateException("failing once, on purpose, after " + failAfter + " emitted events");
            }
        }
    }

    /** Per account: events read and their sum, in {@link #TOTALS}. */
    public static final class Totals implements KeyedFunction<long[]> {
        @Override
        public void onEvent(final SchemaRecord event, final KeyedContext<long[]> context) {
            long[] totals = context.state();
            if (totals == null) {
                totals = new long[2];
                context.setState(totals);
            }
            totals[0]++;
            totals[1] += event.getLong(2);
            context.put(TOTALS, context.longKey(), totals[0] + "/" + totals[1]);
        }
    }

    /** What runs after each appended amount: {@code i} is its index (pacing, flushing). */
    public interface AfterEach {
        void accept(int i) throws Exception;
    }

    /**
     * Appends {@code count} amounts to {@code log} — amount i: account {@code i % accounts}, cents
     * {@code 1 + (i × 7919) % 10,000}, time {@link #START} + i, sequence i — calling
     * {@code afterEach} after each and flushing at the end; returns the oracle: per account the
     * "count/sum" that {@code doubled-totals} must reach (the sum of the doubled cents).
     */
    public static Map<Long, String> appendAmounts(final EventLog log, final int count, final int accounts, final AfterEach afterEach)
            throws Exception {
        final long[][] totals = new long[accounts][2];
        final SchemaRecord record = new SchemaRecord(AMOUNT.layout());
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[AMOUNT.layout().length()]);
        for (int i = 0; i < count; i++) {
            final int account = i % accounts;
            final long cents = 1 + (i * 7919L) % 10_000;
            record.wrapForWrite(buffer, 0).sequence(i).setLong(0, account).setTimestamp(1, START + i).setLong(2, cents);
            log.append(record);
            totals[account][0]++;
            totals[account][1] += 2 * cents;
            afterEach.accept(i);
        }
        log.flush();
        final Map<Long, String> expected = new HashMap<>();
        for (int account = 0; account < accounts; account++) {
            expected.put((long) account, totals[account][0] + "/" + totals[account][1]);
        }
        return expected;
    }

    public static final StateCodec<long[]> TWO_LONGS = StateCodec.longs(2);

    public static KeyedJob<long[]> doubler() {
        return KeyedJob.<long[]>builder("doubler", AMOUNT).function(new Doubler()).state(TWO_LONGS)
                .time(TimePolicy.of(0, 365L * 24 * 3_600_000)).emits(DOUBLED).build();
    }

    public static KeyedJob<long[]> totals() {
        return KeyedJob.<long[]>builder("doubled-totals", DOUBLED).function(new Totals()).state(TWO_LONGS)
                .time(TimePolicy.of(0, 365L * 24 * 3_600_000)).writes(TOTALS).build();
    }
}
