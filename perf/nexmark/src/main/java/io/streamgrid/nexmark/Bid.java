package io.streamgrid.nexmark;

/**
 * A bid of {@code bidder} (a person) on {@code auction} (one opened before): NEXMark's {@code Bid}.
 *
 * @param price    cents
 * @param dateTime event time, epoch milliseconds
 */
public record Bid(long auction, long bidder, long price, String channel, String url, long dateTime, String extra)
        implements java.io.Serializable {
}
