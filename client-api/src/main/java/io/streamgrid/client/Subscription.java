package io.streamgrid.client;

/** A running continuous query; {@link #close()} stops it. Counters are for monitoring. */
public interface Subscription extends AutoCloseable {
    /** Deltas delivered to the listener so far. */
    long delivered();

    /** Resynchronisations so far (each may cover several partitions). */
    long resyncs();

    /** Times the bounded buffer overflowed (each followed by a resync of all partitions). */
    long overflows();

    @Override
    void close();
}
