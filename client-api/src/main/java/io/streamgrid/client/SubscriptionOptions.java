package io.streamgrid.client;

/**
 * @param bufferCapacity deltas held for a listener that is behind; when full, the subscription stops
 *                       reading and goes on where it stopped as the listener makes room — writers and other subscribers are never slowed, and nothing is lost
 *                       while the journal still holds the unread changes (a partition whose journal
 *                       was overwritten meanwhile resynchronises)
 */
public record SubscriptionOptions(int bufferCapacity) {
    public SubscriptionOptions {
        if (bufferCapacity < 16) {
            throw new IllegalArgumentException("bufferCapacity must be at least 16, was " + bufferCapacity);
        }
    }

    public static SubscriptionOptions defaults() {
        return new SubscriptionOptions(10_000);
    }
}
