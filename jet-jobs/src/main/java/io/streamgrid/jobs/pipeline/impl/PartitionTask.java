package io.streamgrid.jobs.pipeline.impl;

/**
 * One log partition's work inside a job: its reader position and the state it builds from the
 * partition's records. Everything it decides depends only on those records in log order, so a
 * restored task replays to exactly the same state. Single-threaded.
 */
interface PartitionTask {
    int partition();

    /** Reads and handles up to {@code max} records; returns how many (0 when nothing new is there). */
    int poll(int max);

    /** The partition's watermark; Long.MIN_VALUE before its first event. */
    long watermark();

    /** Whether the partition's end of stream was read. */
    boolean ended();

    /** System.nanoTime() of the last record read (or of creation, restore, {@link #markRead}): for idle detection. */
    long lastRecordNanos();

    /** Counts as a read now: the idle clock restarts. */
    void markRead(long nanos);

    /** Appends a heartbeat at {@code eventTime} to the partition's log; read later like any record. */
    void appendHeartbeat(long eventTime);

    long events();

    long lateEvents();

    long rejected();

    long results();

    /** The task's whole state in compact binary form. */
    byte[] snapshot();

    /** Restores {@link #snapshot()}'s output; reading resumes after the saved position. */
    void restore(byte[] snapshot);

    void close();
}
