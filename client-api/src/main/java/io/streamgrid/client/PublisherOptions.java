package io.streamgrid.client;

import java.time.Duration;

/**
 * How a {@link Publisher} sends.
 *
 * @param maxInFlight     events published and not yet acknowledged, at most; then {@link Publisher#publish} blocks,
 *                        or fails with {@link PublishException.Reason#FULL} when {@code failWhenFull}
 * @param failWhenFull    fail fast instead of blocking when {@code maxInFlight} events are in flight
 * @param maxBatch        events sent to the members in one request, at most; events published
 *                        while a request is on its way wait and go in the next
 * @param deliveryTimeout how long the publisher keeps retrying an event (member failover, log
 *                        unreachable) before it reports {@link PublishException.Reason#NOT_ACKNOWLEDGED}
 */
public record PublisherOptions(int maxInFlight, boolean failWhenFull, int maxBatch, Duration deliveryTimeout) {
    public PublisherOptions {
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("maxInFlight must be at least 1, was " + maxInFlight);
        }
        if (maxBatch < 1 || maxBatch > 100_000) {
            throw new IllegalArgumentException("maxBatch must be 1..100000, was " + maxBatch);
        }
        if (deliveryTimeout == null || deliveryTimeout.toMillis() < 100) {
            throw new IllegalArgumentException("deliveryTimeout must be at least 100 ms, was " + deliveryTimeout);
        }
    }

    /** 20,000 in flight, blocking when full, batches of up to 2,000, retried for 30 s. */
    public static PublisherOptions defaults() {
        return new PublisherOptions(20_000, false, 2_000, Duration.ofSeconds(30));
    }

    public PublisherOptions withMaxInFlight(final int events) {
        return new PublisherOptions(events, failWhenFull, maxBatch, deliveryTimeout);
    }

    public PublisherOptions failingWhenFull() {
        return new PublisherOptions(maxInFlight, true, maxBatch, deliveryTimeout);
    }

    public PublisherOptions withMaxBatch(final int events) {
        return new PublisherOptions(maxInFlight, failWhenFull, events, deliveryTimeout);
    }

    public PublisherOptions withDeliveryTimeout(final Duration timeout) {
        return new PublisherOptions(maxInFlight, failWhenFull, maxBatch, timeout);
    }
}
