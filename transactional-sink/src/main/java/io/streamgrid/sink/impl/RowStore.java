package io.streamgrid.sink.impl;

import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * Where the sink's writes go: one table. The processor decides what to write, when, with which
 * timestamp and what to do about errors; a store only executes. The real one is {@link CqlRowStore};
 * tests use a recording fake to pin the protocol's order.
 */
interface RowStore extends AutoCloseable {
    /**
     * Writes the rows of one partition key together; completes when they are acknowledged, or
     * exceptionally with the driver's error.
     *
     * @param timestampMicros the write timestamp of every row, or negative for the server's
     */
    CompletionStage<?> write(List<RowWrite> partition, long timestampMicros);

    /**
     * Records, before any row is written with it, that {@code timestampMicros} is in use on this
     * table, so that a job started later writes above it (see {@link TimestampLedger}).
     */
    void reserve(long timestampMicros);

    /** The statements, for error messages. */
    String describe();

    @Override
    void close();
}
