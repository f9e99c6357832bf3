package io.streamgrid.perf.bench.nexmark;

import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.TypedField;

/**
 * NEXMark's three streams as StreamGrid schemas: persons keyed by id, auctions by id, bids by the
 * auction they are on (what most queries group them by). Strings are bounded at what the
 * generator can produce ({@link io.streamgrid.nexmark.NexmarkGenerator}, padding at 100 %).
 */
final class NexmarkSchemas {
    static final EventSchema PERSON = EventSchema.builder("nexmark-person")
            .longKey("id")
            .eventTime("date_time")
            .string("name", 32)
            .string("email_address", 24)
            .string("credit_card", 20)
            .string("city", 16)
            .string("state", 2)
            .string("extra", 170)
            .build();

    static final EventSchema AUCTION = EventSchema.builder("nexmark-auction")
            .longKey("id")
            .eventTime("date_time")
            .string("item_name", 14)
            .string("description", 60)
            .int64("initial_bid")
            .int64("reserve")
            .int64("expires")
            .int64("seller")
            .int64("category")
            .string("extra", 560)
            .build();

    static final EventSchema BID = EventSchema.builder("nexmark-bid")
            .longKey("auction")
            .eventTime("date_time")
            .int64("bidder")
            .int64("price")
            .string("channel", 16)
            .string("url", 56)
            .string("extra", 32)
            .build();

    /**
     * The bids again, keyed by bidder: the log a re-keying job copies them into for the queries that
     * group bids by bidder (Q11) — StreamGrid's shuffle is a log partitioned by the new key.
     */
    static final EventSchema BID_BY_BIDDER = EventSchema.builder("nexmark-bid-by-bidder")
            .longKey("bidder")
            .eventTime("date_time")
            .int64("auction")
            .int64("price")
            .string("channel", 16)
            .string("url", 56)
            .string("extra", 32)
            .build();

    /** The auctions again, keyed by seller: the log a re-keying job copies them into for Q8's join with persons. */
    static final EventSchema AUCTION_BY_SELLER = auctionsBySeller("nexmark-auction-by-seller");

    /**
     * Q3's copy: only its category's auctions, so a log of its own — a log has one emitting job, and
     * over Kafka a job's claim on a topic outlives the topic. The same layout as {@link #AUCTION_BY_SELLER}
     * (one factory), so that schema's fields read it.
     */
    static final EventSchema CATEGORY_AUCTION_BY_SELLER = auctionsBySeller("nexmark-q3-auction-by-seller");

    private static EventSchema auctionsBySeller(final String name) {
        return EventSchema.builder(name)
                .longKey("seller")
                .eventTime("date_time")
                .int64("id")
                .string("item_name", 14)
                .string("description", 60)
                .int64("initial_bid")
                .int64("reserve")
                .int64("expires")
                .int64("category")
                .string("extra", 560)
                .build();
    }

    /**
     * Q4's auctions as they close, keyed by category: the log the closing job emits into and the
     * per-category job reads — StreamGrid's second stage after a shuffle. {@code price} is the
     * winning bid, or -1 when no bid met the reserve in time.
     */
    static final EventSchema AUCTION_CLOSED = EventSchema.builder("nexmark-q4-closed")
            .longKey("category")
            .eventTime("date_time")
            .int64("auction")
            .int64("price")
            .build();

    /**
     * Q5's first stage: per window (keyed by its end, which is also the event time) one partition's
     * auctions of the most bids in it — the log the counting job emits into and the second stage reads.
     */
    static final EventSchema HOT_AUCTION = EventSchema.builder("nexmark-q5-hot")
            .longKey("window_end")
            .eventTime("date_time")
            .int64("auction")
            .int64("bids")
            .build();

    /** Q7's first stage: per window (keyed by its end, also the event time) one partition's bids of the highest price. */
    static final EventSchema TOP_BID = EventSchema.builder("nexmark-q7-top")
            .longKey("window_end")
            .eventTime("date_time")
            .int64("auction")
            .int64("bidder")
            .int64("price")
            .int64("bid_time")
            .build();

    static final TypedField.LongField HOT_END = HOT_AUCTION.longField("window_end");
    static final TypedField.LongField HOT_AUCTION_ID = HOT_AUCTION.longField("auction");
    static final TypedField.LongField HOT_BIDS = HOT_AUCTION.longField("bids");
    static final TypedField.TimestampField HOT_TIME = HOT_AUCTION.timestampField("date_time");
    static final TypedField.LongField TOP_END = TOP_BID.longField("window_end");
    static final TypedField.LongField TOP_AUCTION = TOP_BID.longField("auction");
    static final TypedField.LongField TOP_BIDDER = TOP_BID.longField("bidder");
    static final TypedField.LongField TOP_PRICE = TOP_BID.longField("price");
    static final TypedField.LongField TOP_BID_TIME = TOP_BID.longField("bid_time");
    static final TypedField.TimestampField TOP_TIME = TOP_BID.timestampField("date_time");

    static final TypedField.LongField SOLD_ID = AUCTION_BY_SELLER.longField("id");
    static final TypedField.LongField CLOSED_CATEGORY = AUCTION_CLOSED.longField("category");
    static final TypedField.TimestampField CLOSED_TIME = AUCTION_CLOSED.timestampField("date_time");
    static final TypedField.LongField CLOSED_AUCTION = AUCTION_CLOSED.longField("auction");
    static final TypedField.LongField CLOSED_PRICE = AUCTION_CLOSED.longField("price");

    static final TypedField.LongField PERSON_ID = PERSON.longField("id");
    static final TypedField.StringField PERSON_NAME = PERSON.stringField("name");
    static final TypedField.StringField PERSON_EMAIL = PERSON.stringField("email_address");
    static final TypedField.StringField PERSON_CARD = PERSON.stringField("credit_card");
    static final TypedField.StringField PERSON_CITY = PERSON.stringField("city");
    static final TypedField.StringField PERSON_STATE = PERSON.stringField("state");
    static final TypedField.TimestampField PERSON_TIME = PERSON.timestampField("date_time");
    static final TypedField.StringField PERSON_EXTRA = PERSON.stringField("extra");

    static final TypedField.LongField AUCTION_ID = AUCTION.longField("id");
    static final TypedField.TimestampField AUCTION_TIME = AUCTION.timestampField("date_time");
    static final TypedField.StringField AUCTION_ITEM = AUCTION.stringField("item_name");
    static final TypedField.StringField AUCTION_DESCRIPTION = AUCTION.stringField("description");
    static final TypedField.LongField AUCTION_INITIAL_BID = AUCTION.longField("initial_bid");
    static final TypedField.LongField AUCTION_RESERVE = AUCTION.longField("reserve");
    static final TypedField.LongField AUCTION_EXPIRES = AUCTION.longField("expires");
    static final TypedField.LongField AUCTION_SELLER = AUCTION.longField("seller");
    static final TypedField.LongField AUCTION_CATEGORY = AUCTION.longField("category");
    static final TypedField.StringField AUCTION_EXTRA = AUCTION.stringField("extra");

    static final TypedField.LongField BID_AUCTION = BID.longField("auction");
    static final TypedField.TimestampField BID_TIME = BID.timestampField("date_time");
    static final TypedField.LongField BID_BIDDER = BID.longField("bidder");
    static final TypedField.LongField BID_PRICE = BID.longField("price");
    static final TypedField.StringField BID_CHANNEL = BID.stringField("channel");
    static final TypedField.StringField BID_URL = BID.stringField("url");
    static final TypedField.StringField BID_EXTRA = BID.stringField("extra");

    private NexmarkSchemas() {
    }
}
