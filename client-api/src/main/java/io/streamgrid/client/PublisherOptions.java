package io.streamgrid.client;

import java.time.Duration;

/**
 * How a {@link Publisher} sends.
 *
 * @param maxInFlight     events published and not yet acknowledged, at most; then {@link Publisher#publish} blocks,
 *                        or fails with {@link PublishException.Reason#FULL} when {@code failWhenFull}
 * @param failWhenFull    fail fast instead of blocking when {@code maxInFlight} events are in flight
 * @param maxBatch        events sent to the members in one request, at most; events published
 *                        while a request is on its way wait and go in the next (through the
 *                        members only: a Kafka producer batches by its own rules)
 * @param deliveryTimeout how long the publisher keeps retrying an event (member failover, log
 *                        unreachable) before it reports {@link PublishException.Reason#NOT_ACKNOWLEDGED}
 * @param throughMembers  send events through the members also when their log is Kafka — for an
 *                        application that reaches the members but not the brokers; by default a
 *                        publisher of a Kafka log produces to its topic itself (faster: no hop
 *                        through a member), with the same exactly-once contract
 */
public record PublisherOptions(int maxInFlight, boolean failWhenFull, int maxBatch, Duration deliveryTimeout, boolean throughMembers) {
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

    /** 20,000 in flight, blocking when full, batches of up to 2,000, retried for 30 s, straight to Kafka when the log is Kafka. */
    public static PublisherOptions defaults() {
        return new PublisherOptions(20_000, false, 2_000, Duration.ofSeconds(30), false);
    }

    public PublisherOptions withMaxInFlight(final int events) {
        return new PublisherOptions(events, failWhenFull, maxBatch, deliveryTimeout, throughMembers);
    }

    public PublisherOptions failingWhenFull() {
        return new PublisherOptions(maxInFlight, true, maxBatch, deliveryTimeout, throughMembers);
    }

    public PublisherOptions withMaxBatch(final int events) {
        return new PublisherOptions(maxInFlight, failWhenFull, events, deliveryTimeout, throughMembers);
    }

    public PublisherOptions withDeliveryTimeout(final Duration timeout) {
        return new PublisherOptions(maxInFlight, failWhenFull, maxBatch, timeout, throughMembers);
    }

    /** Events go through the members whatever the log (see {@link #throughMembers()}). */
    public PublisherOptions sentThroughMembers() {
        return new PublisherOptions(maxInFlight, failWhenFull, maxBatch, deliveryTimeout, true);
    }
}
