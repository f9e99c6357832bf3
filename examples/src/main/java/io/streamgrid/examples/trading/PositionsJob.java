package io.streamgrid.examples.trading;

import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.StateCodec;
import io.streamgrid.jobs.keyed.StreamGridJob;
import io.streamgrid.jobs.keyed.StringKeyContext;
import io.streamgrid.jobs.keyed.StringKeyedFunction;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.schema.TypedField.DoubleField;
import io.streamgrid.jobs.schema.TypedField.EnumField;
import io.streamgrid.jobs.schema.TypedField.LongField;
import io.streamgrid.jobs.schema.TypedField.StringField;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * Positions and realised P&amp;L per account and symbol, gross exposure per account, and an alert
 * when an account's exposure goes above a limit. Trades of an account are applied in log order
 * (the order they were appended), which is the order a replay sees too.
 *
 * <p>Submit it from your own jar with {@code streamgrid job submit --jar app.jar --class
 * io.streamgrid.examples.trading.PositionsJob}; the limit is {@value #DEFAULT_LIMIT} unless a
 * subclass passes another.
 */
public class PositionsJob implements StreamGridJob {
    public static final String NAME = "positions";
    public static final double DEFAULT_LIMIT = 5_000_000;
    /** Trades may arrive up to an hour out of order before they are set aside as late. */
    public static final long LATENESS_MS = 3_600_000;

    private final double limit;

    public PositionsJob() {
        this(DEFAULT_LIMIT);
    }

    public PositionsJob(final double limit) {
        this.limit = limit;
    }

    @Override
    public KeyedJob<?> job() {
        return KeyedJob.<AccountBook>builder(NAME, Trades.TRADE)
                .stringKeyed(new Positions(limit))
                .state(new BookCodec())
                .time(TimePolicy.of(0, LATENESS_MS))
                .writes(Trades.POSITIONS, Trades.EXPOSURE, Trades.ALERTS)
                .build();
    }

    public double limit() {
        return limit;
    }

    static final class Positions implements StringKeyedFunction<AccountBook> {
        private static final StringField SYMBOL = Trades.TRADE.stringField("symbol");
        private static final DoubleField PRICE = Trades.TRADE.doubleField("price");
        private static final LongField QUANTITY = Trades.TRADE.longField("quantity");
        private static final EnumField SIDE = Trades.TRADE.enumField("side");
        private final double limit;

        Positions(final double limit) {
            this.limit = limit;
        }

        @Override
        public void onEvent(final SchemaRecord trade, final StringKeyContext<AccountBook> context) {
            AccountBook book = context.state();
            if (book == null) {
                book = new AccountBook();
                context.setState(book);
            }
            int i = 0;
            while (i < book.size && !trade.equals(SYMBOL, book.symbols[i])) {
                i++;
            }
            if (i == book.size) {
                book.add(trade.get(SYMBOL));
            }
            final long units = trade.get(QUANTITY);
            final double at = trade.get(PRICE);
            book.apply(i, trade.ordinal(SIDE) == 0 ? units : -units, at);

            final String account = context.stringKey();
            final long time = trade.eventTime();
            context.put(Trades.POSITIONS, Trades.positionKey(account, book.symbols[i]), new Position(account, book.symbols[i],
                    book.quantity[i], book.averagePrice[i], book.realisedPnl[i], book.lastPrice[i], book.trades[i], time));
            final double gross = book.gross();
            final boolean over = gross > limit;
            if (over && !book.overLimit) {
                book.breaches++;
                context.put(Trades.ALERTS, account + "|" + book.breaches, new ExposureAlert(account, book.breaches, gross, limit, time));
            }
            book.overLimit = over;
            context.put(Trades.EXPOSURE, account, new Exposure(account, gross, book.realised(), over, time));
        }
    }

    static final class BookCodec implements StateCodec<AccountBook> {
        @Override
        public void write(final AccountBook state, final DataOutput out) throws IOException {
            state.write(out);
        }

        @Override
        public AccountBook read(final DataInput in) throws IOException {
            return AccountBook.read(in);
        }
    }
}
