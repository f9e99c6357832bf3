package io.streamgrid.examples.trading;

import io.streamgrid.jobs.schema.EventSchema;

/** The trade event, keyed by account: every trade of an account is processed in log order, by one thread. */
public final class Trades {
    public static final EventSchema TRADE = EventSchema.builder("trade")
            .stringKey("account", 16)
            .eventTime("ts")
            .string("symbol", 12)
            .float64("price")
            .int64("quantity")
            .enumOf("side", "BUY", "SELL")
            .build();

    public static final String POSITIONS = "state.positions";
    public static final String EXPOSURE = "state.exposure";
    public static final String ALERTS = "state.exposure-alerts";

    private Trades() {
    }

    /** The key of an account's position in a symbol in {@link #POSITIONS}. */
    public static String positionKey(final String account, final String symbol) {
        return account + "|" + symbol;
    }
}
