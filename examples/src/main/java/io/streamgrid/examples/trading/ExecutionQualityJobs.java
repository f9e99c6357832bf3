package io.streamgrid.examples.trading;

import io.streamgrid.jobs.join.StreamJoin;
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

import java.util.List;

/**
 * Execution quality per symbol: every trade against every quote of the second before it — trades
 * are keyed by account and quotes by symbol, so the trades are first re-keyed by symbol through a
 * log, then joined with the quotes (an interval join), and the pairs' slippage summed per symbol.
 * Three jobs, each exactly-once, so the sums are too; submit them in this order (each is also a
 * job the CLI submits by name: {@code trades-by-symbol}, {@code trade-quotes}, {@code execution-quality}).
 */
public final class ExecutionQualityJobs {
    /** Quotes from this long before a trade up to its time pair with it. */
    public static final long QUOTE_WINDOW_MS = 1_000;
    /**
     * The quotes' allowed disorder (the re-keyed trades follow the re-key's partitions' clocks
     * instead, whatever their drift after a restart). Costs only memory (a minute of kept quotes and
     * trades per symbol); pairs are made as soon as both events are in.
     */
    public static final long DISORDER_MS = 60_000;

    private ExecutionQualityJobs() {
    }

    /** The three jobs: re-key the trades by symbol, join them with the quotes, sum per symbol. */
    public static List<KeyedJob<?>> jobs() {
        return List.of(new Rekey().job(), new Join().job(), new Sum().job());
    }

    /** {@code streamgrid job submit trades-by-symbol}: the trades copied into a log keyed by symbol. Submit it first. */
    public static final class Rekey implements StreamGridJob {
        @Override
        public KeyedJob<?> job() {
            return StreamJoin.rekey("trades-by-symbol", Trades.TRADE, Quotes.TRADE_BY_SYMBOL);
        }
    }

    /** {@code streamgrid job submit trade-quotes}: each trade with the quotes of the second before it, as pairs in a log. */
    public static final class Join implements StreamGridJob {
        @Override
        public KeyedJob<?> job() {
            return StreamJoin.interval("trade-quotes", Quotes.TRADE_BY_SYMBOL, Quotes.QUOTE, -QUOTE_WINDOW_MS, 0)
                    // a quiet quotes partition moves on after a minute; the re-keyed trades' log is never moved past (its writers clock it)
                    .time(TimePolicy.of(DISORDER_MS, 0).withIdleTimeout(DISORDER_MS))
                    .onPair(ExecutionQualityJobs::slippage)
                    .emits(Quotes.TRADE_QUOTE)
                    .build();
        }
    }

    /** {@code streamgrid job submit execution-quality}: pairs and summed slippage per symbol in {@link Quotes#EXECUTION_QUALITY}. */
    public static final class Sum implements StreamGridJob {
        @Override
        public KeyedJob<?> job() {
            return KeyedJob.<long[]>builder("execution-quality", Quotes.TRADE_QUOTE)
                    .stringKeyed(new Totals())
                    .state(StateCodec.longs(2))
                    // every pair counts, however late it comes: nothing is late to a sum
                    .time(TimePolicy.of(0, PositionsJob.LATENESS_MS))
                    .writes(Quotes.EXECUTION_QUALITY)
                    .build();
        }
    }

    private static final DoubleField PRICE = Quotes.TRADE_BY_SYMBOL.doubleField("price");
    private static final LongField QUANTITY = Quotes.TRADE_BY_SYMBOL.longField("quantity");
    private static final EnumField SIDE = Quotes.TRADE_BY_SYMBOL.enumField("side");
    private static final DoubleField BID = Quotes.QUOTE.doubleField("bid");
    private static final DoubleField ASK = Quotes.QUOTE.doubleField("ask");
    private static final int TRADE_SYMBOL = Quotes.TRADE_BY_SYMBOL.layout().indexOf("symbol");
    private static final int TRADE_TIME = Quotes.TRADE_BY_SYMBOL.layout().indexOf("ts");

    private static void slippage(final SchemaRecord trade, final SchemaRecord quote, final io.streamgrid.jobs.join.JoinContext context) {
        final SchemaRecord pair = context.newEvent(Quotes.TRADE_QUOTE);
        pair.copyField(0, trade, TRADE_SYMBOL).copyField(1, trade, TRADE_TIME).setLong(2, Quotes.slippageCents(trade.get(PRICE),
                trade.get(QUANTITY), trade.ordinal(SIDE) == 0, quote.get(BID), quote.get(ASK)));
        context.emit(pair);
    }

    /** Per symbol: pairs and summed slippage. */
    static final class Totals implements StringKeyedFunction<long[]> {
        @Override
        public void onEvent(final SchemaRecord pair, final StringKeyContext<long[]> context) {
            long[] totals = context.state();
            if (totals == null) {
                totals = new long[2];
                context.setState(totals);
            }
            totals[0]++;
            totals[1] += pair.getLong(2);
            context.put(Quotes.EXECUTION_QUALITY, context.stringKey(), new ExecutionQuality(context.stringKey(), totals[0], totals[1]));
        }
    }
}
