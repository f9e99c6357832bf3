package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.SchemaRecord;

import java.io.IOException;

/**
 * How far a file's load got, kept so that a load run again after a crash appends every line once
 * and a file loaded completely is refused unless forced. The loaders write every event through it.
 * Two kinds: {@link LoadLedger} (Chronicle logs: a ledger file in the ingest directory) and
 * {@link KafkaLoadLedger} (Kafka topics: each batch of lines one Kafka transaction with its record
 * of progress).
 */
public interface LoadProgress extends AutoCloseable {
    /** Lines an earlier load of the file finished (0: from the first line); the load reads past them. */
    long resumeAfterLine();

    /** Whether an earlier load of the file finished it. */
    boolean finished();

    /** When and how the earlier load finished, for a refusal's message. */
    String finishedDescription();

    /** Events of an interrupted batch found in the log and not appended again. */
    long skippedAsAlreadyAppended();

    /** Appends {@code record} to {@code log} unless an interrupted load appended it already; returns whether it appended. */
    boolean append(EventLog log, SchemaRecord record);

    /** Line {@code lineNumber} is done (appended, rejected or blank); progress is recorded every batch of lines. */
    void lineDone(long lineNumber) throws IOException;

    /** The whole file is done: recorded, so that a second load of it is refused unless forced. */
    void finish(long lines) throws IOException;

    @Override
    void close() throws IOException;
}
