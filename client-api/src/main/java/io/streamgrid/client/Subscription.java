package io.streamgrid.client;

/**
 * A running continuous query; {@link #close()} stops it. Counters are for monitoring; the
 * subscription also reports them to the cluster every couple of seconds ({@link SubscriptionReport}),
 * where the members' status page and metrics show them.
 *
 * <p>It recovers by itself from lost journal events, member crashes, migrations and a slow
 * listener, and an exception thrown by the listener does not stop it (it is counted in
 * {@link #listenerErrors()} and logged). Only when it truly cannot go on — the client was shut
 * down, or an error it cannot recover from — does it end in {@link State#FAILED}, with the cause
 * in {@link #failure()} and {@link DeltaListener#onFailure} called once.
 */
public interface Subscription extends AutoCloseable {
    /** Where a subscription stands. */
    enum State {
        /** Delivering deltas (and resynchronising when it must). */
        RUNNING,
        /** Stopped by an error it cannot recover from: see {@link #failure()}. */
        FAILED,
        /** Closed by {@link #close()}. */
        CLOSED
    }

    State state();

    /** Why the subscription failed; null unless {@link #state()} is FAILED. */
    Throwable failure();

    /** Deltas delivered to the listener so far. */
    long delivered();

    /** Resynchronisations so far (each may cover several partitions). */
    long resyncs();

    /**
     * Times the bounded buffer filled up: reading then waits for the listener and goes on where it
     * stopped as room opens (nothing is lost; only a partition whose journal was overwritten
     * meanwhile resynchronises).
     */
    long overflows();

    /**
     * Versions skipped because a newer one of their key arrived before they were delivered
     * ({@link SubscriptionOptions.Delivery#CONFLATED}; always 0 for every-change delivery).
     */
    long conflated();

    /** Exceptions the listener threw so far; each was logged, and the subscription went on. */
    long listenerErrors();

    /**
     * Deltas received and waiting for the listener: how far it is behind (at most the buffer's
     * capacity; conflated, at most one per key).
     */
    int queued();

    @Override
    void close();
}
