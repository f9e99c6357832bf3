package io.streamgrid.examples.trading;

import io.streamgrid.jobs.schema.EventSchema;

/**
 * The schemas of the execution-quality example ({@link ExecutionQualityJobs}): quotes by symbol, the
 * trades re-keyed by symbol to meet them, and the trade–quote pairs the join emits.
 */
public final class Quotes {
    /** A quote of a symbol: best bid and ask at a time. */
    public static final EventSchema QUOTE = EventSchema.builder("quote")
            .stringKey("symbol", 12)
            .eventTime("ts")
            .float64("bid")
            .float64("ask")
            .build();

    /** {@link Trades#TRADE} keyed by symbol instead of account: the same fields. */
    public static final EventSchema TRADE_BY_SYMBOL = EventSchema.builder("trade-by-symbol")
            .string("account", 16)
            .eventTime("ts")
            .stringKey("symbol", 12)
            .float64("price")
            .int64("quantity")
            .enumOf("side", "BUY", "SELL")
            .build();

    /** A trade and a quote of the second before it: the trade's slippage against the quote's mid, in cents. */
    public static final EventSchema TRADE_QUOTE = EventSchema.builder("trade-quote")
            .stringKey("symbol", 12)
            .eventTime("ts")
            .int64("slippage_cents")
            .build();

    /** Symbol -> {@link ExecutionQuality}. */
    public static final String EXECUTION_QUALITY = "state.execution-quality";

    private Quotes() {
    }

    /**
     * What a trade paid over a quote's mid, in cents of the whole trade: positive when a buy paid
     * more or a sell got less than the mid. Rounded per share to the cent, so that any two
     * computations of it agree to the cent.
     */
    public static long slippageCents(final double price, final long quantity, final boolean buy, final double bid, final double ask) {
        final long perShare = Math.round((price - (bid + ask) / 2) * 100);
        return (buy ? perShare : -perShare) * quantity;
    }
}
