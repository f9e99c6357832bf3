package io.streamgrid.jobs.ingest;

import org.agrona.DirectBuffer;

/**
 * Reads one partition of an {@link EventLog} in append order into a reused buffer. Not
 * thread-safe; {@link #next()} never blocks.
 */
public interface LogReader extends AutoCloseable {
    /** "Nothing read yet": a reader positioned here starts at the first record. */
    long START = -1;

    /**
     * Reads the next record into {@link #buffer()}; returns its full length in bytes (of which at
     * most the buffer's capacity were read), or -1 when there is nothing new yet.
     */
    int next();

    /**
     * Why the record last returned by {@link #next()} is not an event although the log could read
     * it — a JSON value that does not fit the schema ({@link KafkaLog}) — or null. The buffer then
     * holds the record as it is in the log; a job rejects it with this reason.
     */
    default String rejection() {
        return null;
    }

    DirectBuffer buffer();

    /** Index of the record last returned by {@link #next()}, or the position it resumed after. */
    long lastIndex();

    int partition();

    @Override
    void close();
}
