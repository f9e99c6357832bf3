package io.streamgrid.client;

import java.util.Map;
import java.util.Set;

/**
 * Receives a subscription's result: first {@link #onSnapshot}, then {@link #onDelta} in write order
 * per key. All calls come from the subscription's own delivery thread, one at a time; a slow
 * listener delays only its own subscription. An exception thrown by {@link #onDelta} or
 * {@link #onResync} is logged and counted ({@link Subscription#listenerErrors()}); the subscription
 * goes on with the next call.
 */
public interface DeltaListener {
    /**
     * The matching entries when the subscription started. If this throws, the subscription does not
     * start — every delta after it would be relative to a state the listener does not have:
     * {@link #onFailure} is called and the call that subscribed throws, naming the exception.
     */
    void onSnapshot(Map<Object, Object> entries);

    void onDelta(Delta delta);

    /**
     * The subscription re-read these partitions from the map (after journal events were overwritten
     * before it read them — a listener that stays behind for long, or a burst larger than a
     * partition's journal — or a read that failed for good) and has delivered, as deltas with sequence -1, what the
     * listener had missed. The listener's view equals the map's state again.
     */
    default void onResync(final Set<Integer> partitions, final String reason) {
    }

    /**
     * The subscription cannot go on (the client was shut down, or an error it cannot recover from):
     * no call follows this one. {@link Subscription#state()} is FAILED with the same cause.
     */
    default void onFailure(final Throwable cause) {
    }
}
