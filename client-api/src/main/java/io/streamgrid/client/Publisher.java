package io.streamgrid.client;

import java.util.concurrent.CompletableFuture;

/**
 * Publishes events of one schema into its log, from any host that reaches a member: the members
 * append them (Chronicle: on their host; Kafka: to the schema's topic).
 *
 * <p><b>Exactly once.</b> A publisher has an id, chosen by the application and stable across its
 * restarts, and numbers its events 1, 2, 3, ... The members keep, per publisher, the highest
 * sequence in the log — checked against the log itself after a member failure — and never append
 * a sequence twice: a request retried after a timeout or a member failover appends nothing new,
 * and an application that restarts opens its publisher again, reads {@link #durableSequence()},
 * and publishes its events from the next one on (the same events in the same order, as a Kafka
 * idempotent producer expects); an event published again under a sequence already in the log is
 * acknowledged as a {@link PublishResult#duplicate() duplicate}. Jobs reading the log drop a
 * repeated sequence too (if a crash ever appended one twice).
 *
 * <p><b>Acknowledgements.</b> {@link #publish} returns at once (unless {@link PublisherOptions#maxInFlight()}
 * events are in flight) with a future completed when the event is durable in the log, or failed
 * with a {@link PublishException} whose {@link PublishException#reason() reason} says whether it
 * can be there. Events are acknowledged in order. Thread-safe.
 */
public interface Publisher extends AutoCloseable {
    /** The application's name for this publisher. */
    String id();

    String schema();

    /** The highest sequence in the log when the publisher was opened (0 for a new publisher): the next event is numbered one more. */
    long durableSequence();

    /**
     * Publishes {@code event} as the next sequence: one more than the last published here (or than {@link #durableSequence()}).
     *
     * @throws PublishException with {@link PublishException.Reason#FULL} when in-flight events are at the limit and the publisher fails fast,
     *                          {@link PublishException.Reason#CLOSED} after {@link #close()}
     */
    CompletableFuture<PublishResult> publish(Event event);

    /**
     * Publishes {@code event} as sequence {@code sequence} — e.g. the application's own position
     * in its source — which must exceed every sequence published before by this instance (gaps
     * are allowed). A sequence at or below {@link #durableSequence()} is acknowledged as a
     * duplicate, not appended: an application re-running its source after a restart may publish
     * from any point before where it stopped.
     *
     * @throws IllegalArgumentException when {@code sequence} is not above the last one published here, or below 1
     * @throws PublishException         as {@link #publish(Event)}
     */
    CompletableFuture<PublishResult> publish(long sequence, Event event);

    /** Blocks until every event published so far is acknowledged or has failed. */
    void flush();

    /** Flushes, then stops the publisher; later publishes fail with {@link PublishException.Reason#CLOSED}. */
    @Override
    void close();
}
