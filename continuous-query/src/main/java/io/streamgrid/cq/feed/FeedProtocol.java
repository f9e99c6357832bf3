package io.streamgrid.cq.feed;

import java.time.Duration;

/** Names and timings clients and members of a cluster agree on. */
public final class FeedProtocol {
    /** The registry of subscriptions: subscription id → {@link FeedSpec}, each entry with a time to live (the lease). */
    public static final String REGISTRY = "streamgrid.cq.feeds";
    /** How long a subscription's registry entry lives unless its client renews it. */
    public static final Duration LEASE = Duration.ofSeconds(30);
    /** How often a client renews its lease. */
    public static final Duration RENEW_EVERY = Duration.ofSeconds(10);
    /** How often a member sends each subscription a {@link FeedMark}. */
    public static final Duration MARK_EVERY = Duration.ofMillis(250);
    /** After how long without a mark for a partition a client reads that partition's journal itself. */
    public static final Duration SILENCE = Duration.ofSeconds(3);

    private FeedProtocol() {
    }

    /** The topic a subscription's batches and marks arrive on. */
    public static String topicOf(final String subscriptionId) {
        return "streamgrid.cq.feed." + subscriptionId;
    }
}
