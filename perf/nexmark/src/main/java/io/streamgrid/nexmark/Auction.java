package io.streamgrid.nexmark;

/**
 * An item put up for auction by {@code seller} (a person who joined before): NEXMark's
 * {@code Auction}. Prices are in cents; the auction is open from {@code dateTime} to
 * {@code expires} (epoch milliseconds).
 */
public record Auction(long id, String itemName, String description, long initialBid, long reserve, long dateTime, long expires,
                      long seller, long category, String extra) implements java.io.Serializable {
}
