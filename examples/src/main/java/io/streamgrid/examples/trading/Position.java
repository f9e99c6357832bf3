package io.streamgrid.examples.trading;

/**
 * An account's position in one symbol, after its latest trade ({@code state.positions}, keyed
 * {@code account|symbol}).
 *
 * @param quantity     signed: long positive, short negative
 * @param averagePrice average cost of the open quantity (0 when flat)
 * @param realisedPnl  profit realised by closing trades so far
 * @param lastPrice    the price of the account's last trade in the symbol (the mark)
 * @param trades       trades applied to the position so far
 * @param updatedAt    event time of the latest
 */
public record Position(String account, String symbol, long quantity, double averagePrice, double realisedPnl, double lastPrice,
                       long trades, long updatedAt) {
}
