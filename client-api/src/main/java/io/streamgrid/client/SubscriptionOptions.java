package io.streamgrid.client;

/**
 * @param bufferCapacity messages of the members' change feed (batches of changes, and marks) held
 *                       for a listener that is behind; when full, what the feed pushes is dropped and
 *                       read from the map's journal once the listener has caught up (a resync only if
 *                       the journal no longer holds it) — writers and other subscribers are never slowed
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
