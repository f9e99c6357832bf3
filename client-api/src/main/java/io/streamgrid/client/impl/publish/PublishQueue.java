package io.streamgrid.client.impl.publish;

import io.streamgrid.client.PublishException;
import io.streamgrid.client.PublisherOptions;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.Semaphore;

/**
 * What both kinds of publisher share on the application's side: the bound on events in flight
 * (block, or fail fast, by {@link PublisherOptions}) and the numbering of events — the next
 * sequence, or one the application gives, which must increase. Sequences are assigned under the
 * caller's lock, so they follow the order the events are handed on in.
 */
final class PublishQueue {
    private final String publisherId;
    private final PublisherOptions options;
    private final long durableSequence;
    private final Semaphore inFlight;
    /** The last sequence assigned, 0 before the first. */
    private long lastPublished;

    PublishQueue(final String publisherId, final PublisherOptions options, final long durableSequence) {
        this.publisherId = publisherId;
        this.options = options;
        this.durableSequence = durableSequence;
        this.inFlight = new Semaphore(options.maxInFlight());
    }

    /**
     * Takes a place for one event, waiting for one (or failing with {@link PublishException.Reason#FULL}
     * when the options say so).
     */
    void acquire() {
        if (options.failWhenFull()) {
            if (!inFlight.tryAcquire()) {
                throw new PublishException(PublishException.Reason.FULL, -1, options.maxInFlight()
                        + " events are in flight (PublisherOptions.maxInFlight): not sent", null);
            }
            return;
        }
        try {
            inFlight.acquire();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PublishException(PublishException.Reason.CLOSED, -1, "interrupted while waiting to publish", e);
        }
    }

    /** Gives back the places of {@code events} events that were completed (or never handed on). */
    void release(final int events) {
        inFlight.release(events);
    }

    /**
     * The sequence of the next event: {@code requested}, or one more than the last (or than the
     * durable sequence) when {@code requested} is negative. Call under the publisher's lock.
     *
     * @throws IllegalArgumentException when {@code requested} is not above the last one assigned
     */
    long assign(final long requested) {
        final long assigned = requested < 0 ? Math.max(lastPublished, durableSequence) + 1 : requested;
        if (assigned <= lastPublished) {
            throw new IllegalArgumentException("sequence " + requested + " is not above " + lastPublished
                    + ", the last one published here: sequences of a publisher increase");
        }
        lastPublished = assigned;
        return assigned;
    }

    /** Blocks until every place is free again: every event handed on has been completed. */
    void awaitEmpty() {
        try {
            inFlight.acquire(options.maxInFlight());
            inFlight.release(options.maxInFlight());
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The error of an event refused as invalid: {@code reason} names the field; the event's text, abbreviated. */
    static PublishException rejected(final String schema, final long sequence, final String reason, final byte[] utf8) {
        final String json = new String(utf8, StandardCharsets.UTF_8);
        return new PublishException(PublishException.Reason.REJECTED, sequence, "event " + sequence + " of schema " + schema
                + " rejected: " + reason + " (event: " + (json.length() <= 200 ? json : json.substring(0, 200) + "...") + ")", null);
    }

    long deliveryTimeoutMs() {
        return options.deliveryTimeout().toMillis();
    }

    PublishException closed() {
        return new PublishException(PublishException.Reason.CLOSED, -1, "publisher " + publisherId + " is closed", null);
    }
}
