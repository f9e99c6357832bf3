package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.PublishedSequence;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;

/**
 * The durable, partitioned log of one {@link EventSchema} that jobs read: records in the schema's
 * binary layout ({@link SchemaRecord}), all events of a key in one partition in append order, and
 * control records (heartbeats, end of stream). A record's index orders it within its partition and
 * is what a job's snapshot keeps. Two implementations: {@link SchemaLog} (Chronicle Queue on the
 * members' host, the default) and {@link KafkaLog} (a Kafka topic, for
 * clusters across hosts).
 */
public interface EventLog extends AutoCloseable {
    /** How this log is named where positions are kept ({@link LogPositions}): the same on every member. */
    String name();

    /** The schema this instance reads and writes with. */
    EventSchema schema();

    int partitions();

    /** A reader of {@code partition} positioned after {@code lastReadIndex} ({@link LogReader#START}: at the beginning). */
    LogReader reader(int partition, long lastReadIndex);

    /** Records of {@code partition} after {@code lastReadIndex}, control records included (a reader's lag); cheap, approximate where the log cannot count exactly. */
    long recordsAfter(int partition, long lastReadIndex);

    /**
     * An index that every record appended to {@code partition} after this call exceeds: where a
     * search for records appended from now on may start. Never blocks for long; may be older than
     * the end ({@link KafkaLog}: the end offset as last listed, {@link LogReader#START} before the first listing).
     */
    long tailIndex(int partition);

    /**
     * The index of {@code partition}'s last record now ({@link LogReader#START} when empty), asking
     * the log: blocks ({@link KafkaLog}: the last stable offset, at most a minute).
     *
     * @throws IllegalStateException when the log does not answer
     */
    long lastIndexNow(int partition);

    /** Appends {@code record} to its key's partition; returns its index where the log knows it at once, else -1. */
    long append(SchemaRecord record);

    /** Appends a heartbeat to {@code partition}: it was idle and its event-time clock stands at {@code eventTime}. Any thread. */
    long appendHeartbeat(int partition, long eventTime);

    /** Appends an end-of-stream record to every partition. */
    void appendEndOfStream();

    /**
     * Appends to every partition that writer {@code writer} of {@code writers} (the emitting job's
     * partition, of its partitions) will emit no event earlier than {@code time}; {@code Long.MAX_VALUE}:
     * it has ended ({@link io.streamgrid.jobs.schema.SchemaLayout#KIND_WRITER_CLOCK}). The emitting
     * job's thread calls this, after the events it emitted before.
     */
    void appendWriterClock(int writer, int writers, long time);

    /**
     * Records that job {@code jobName} emits events into this log, unless it is recorded already.
     *
     * @throws IllegalStateException when another job emits into this log
     */
    void claimEmitter(String jobName);

    /** Whether a job claimed this log to emit into ({@link #claimEmitter}): its readers then take their clock from its writers. */
    boolean hasEmitter();

    /**
     * The slot of publisher {@code publisherId} in this log ({@link PublishedSequence}), recorded in
     * the log itself on the publisher's first use — so it outlives the cluster, and a publisher
     * keeps its slot, hence its readers' record of what they read, for as long as the log exists.
     * Callers allocate one at a time per log ({@link KafkaLog} records a claim without a compare-and-set).
     *
     * @throws IllegalStateException when every slot is taken, or the log cannot record the claim
     */
    PublisherSlot publisherSlot(String publisherId);

    /** A publisher's slot in a log; {@code isNew}: claimed by this call (the log holds none of its events). */
    record PublisherSlot(int slot, boolean isNew) {
    }

    /**
     * Blocks until every record appended so far is durable in the log (a no-op where appends are synchronous).
     *
     * @throws IllegalStateException when a record appended since the last flush could not be written
     */
    default void flush() {
    }

    @Override
    void close();
}
