package io.streamgrid.examples.trading;

/**
 * An account's exposure after its latest trade ({@code state.exposure}, keyed by account).
 *
 * @param gross       sum over symbols of |quantity| × last price
 * @param realisedPnl realised P&amp;L over all symbols
 * @param overLimit   whether gross is above the job's limit
 */
public record Exposure(String account, double gross, double realisedPnl, boolean overLimit, long updatedAt) {
}
