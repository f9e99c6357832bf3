package io.streamgrid.jobs.keyed;

import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;

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
