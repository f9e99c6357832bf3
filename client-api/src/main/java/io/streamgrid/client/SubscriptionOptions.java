package io.streamgrid.client;

/**
 * @param bufferCapacity deltas held for a listener that is behind; when full, the subscription stops
 *                       reading and resynchronises once the listener caught up — writers and other
 *                       subscribers are never slowed
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
