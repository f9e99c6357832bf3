package io.streamgrid.examples.trading;

import java.io.Serializable;

/**
 * A symbol's execution quality so far: how many (trade, quote) pairs — each trade with every quote
 * of the second before it — and their summed slippage against the quotes' mids, in cents.
 */
public record ExecutionQuality(String symbol, long pairs, long slippageCents) implements Serializable {
}
