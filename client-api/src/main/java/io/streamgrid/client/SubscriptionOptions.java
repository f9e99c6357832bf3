package io.streamgrid.client;

import java.util.Objects;

/**
 * How a subscription delivers.
 *
 * @param bufferCapacity deltas held for a listener that is behind ({@link Delivery#EVERY_CHANGE});
 *                       when full, the subscription stops reading and goes on where it stopped as the
 *                       listener makes room — writers and other subscribers are never slowed, and
 *                       nothing is lost while the journal still holds the unread changes (a partition
 *                       whose journal was overwritten meanwhile resynchronises)
 * @param delivery       every change as its own delta, or the latest value of each key
 */
public record SubscriptionOptions(int bufferCapacity, Delivery delivery) {
    /** Which changes a listener is told. */
    public enum Delivery {
        /**
         * Every version of every matching key as its own delta, in write order per key, also across
         * member crashes and migrations; a listener slower than the writes holds back the reading
         * (at most {@code bufferCapacity} deltas wait).
         */
        EVERY_CHANGE,
        /**
         * The latest value of each key, for a listener that needs the current state rather than its
         * history — a screen, a view. Contract: per key, deltas arrive in version order and a key's
         * value never goes back; intermediate versions may be skipped (while the listener is busy,
         * after a resync); a key's latest value, or its LEAVE, is always delivered eventually; after
         * the writes stop, the listener's picture equals the map — through member crashes, members
         * added and migrations. A slow listener gets fewer, newer deltas instead of a backlog: what
         * waits for it is at most one delta per key, and reading never waits for it.
         * {@link Subscription#conflated()} counts the versions skipped, {@link Subscription#resyncs()}
         * the resynchronisations.
         */
        CONFLATED
    }

    public SubscriptionOptions {
        if (bufferCapacity < 16) {
            throw new IllegalArgumentException("bufferCapacity must be at least 16, was " + bufferCapacity);
        }
        Objects.requireNonNull(delivery, "delivery");
    }

    /** Every change, with {@code bufferCapacity}. */
    public SubscriptionOptions(final int bufferCapacity) {
        this(bufferCapacity, Delivery.EVERY_CHANGE);
    }

    /** Every change, 10,000 deltas of buffer. */
    public static SubscriptionOptions defaults() {
        return new SubscriptionOptions(10_000);
    }

    /** The latest value of each key ({@link Delivery#CONFLATED}). */
    public static SubscriptionOptions conflated() {
        return new SubscriptionOptions(10_000, Delivery.CONFLATED);
    }

    public SubscriptionOptions withDelivery(final Delivery value) {
        return new SubscriptionOptions(bufferCapacity, value);
    }
}
