package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.jobs.ingest.PartitionReader;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.LateEvent;
import io.streamgrid.jobs.pipeline.RejectedRecord;
import io.streamgrid.jobs.pipeline.StateWriter;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.DirectBuffer;

import java.io.ByteArrayInputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * One schema-log partition's work inside a job: its reader position and the state it builds from
 * the partition's records. Everything it decides depends only on those records in log order, so a
 * restored task replays to exactly the same state. Single-threaded.
 *
 * <p>This class reads (in batches, from the saved position), keeps the idle clock and the counters,
 * tells control records from events, and rejects records that are not valid events of the schema
 * or are too far ahead of the watermark; subclasses handle the events and control records and own
 * the rest of the state.
 */
abstract class PartitionTask {
    final int partition;
    final StateWriter out;
    private final String jobName;
    private final String rejectedMap;
    private final int snapshotFormat;
    private final SnapshotOutput snapshotOutput = new SnapshotOutput();
    private final SchemaLog log;
    private final long maxFutureMs;
    /** The event being handled (a flyweight over the reader's buffer). */
    final SchemaRecord record;
    private PartitionReader reader;
    /** Index of the record last read (or the restored position); {@link PartitionReader#START} before any. */
    long lastIndex = PartitionReader.START;
    /** System.nanoTime() of the last record read (or of creation, restore, heartbeat): for idle detection. */
    private long lastRecordNanos = System.nanoTime();
    /** Whether the partition's end of stream was read. */
    boolean ended;
    long events;
    long rejected;
    long results;

    /**
     * @param snapshotFormat the version of the subclass's snapshot layout, checked on restore
     * @param maxFutureMs    events further ahead of the watermark are rejected
     */
    PartitionTask(final int partition, final SchemaLog log, final StateWriter out, final String jobName, final String rejectedMap,
                  final int snapshotFormat, final long maxFutureMs) {
        this.partition = partition;
        this.log = log;
        this.out = out;
        this.jobName = jobName;
        this.rejectedMap = rejectedMap;
        this.snapshotFormat = snapshotFormat;
        this.maxFutureMs = maxFutureMs;
        this.record = new SchemaRecord(log.schema().layout());
    }

    /** A valid event, not too far ahead, now in {@link #record} (at {@link #lastIndex}); {@code time} is its event time. */
    abstract void onEvent(long time);

    /** The partition was idle; its event-time clock stands at {@code time}. */
    abstract void onHeartbeat(long time);

    /** The partition's stream ended: everything still due is due now. */
    abstract void onEndOfStream();

    /** Sorts the record of {@code length} bytes just read: a control record, an event, or rejected with the reason. */
    private void handle(final int length) {
        final DirectBuffer buffer = buffer();
        if (length == SchemaLayout.CONTROL_LENGTH && buffer.getByte(1) == SchemaLayout.MARKER) {
            final byte kind = buffer.getByte(0);
            if (kind == SchemaLayout.KIND_END_OF_STREAM) {
                ended = true;
                onEndOfStream();
                return;
            }
            if (kind == SchemaLayout.KIND_HEARTBEAT) {
                onHeartbeat(SchemaLog.controlTime(buffer, 0));
                return;
            }
        }
        record.wrap(buffer, 0, length);
        final String invalid = record.validate();
        if (invalid != null) {
            reject(length, invalid);
            return;
        }
        final long time = record.eventTime();
        final long watermark = watermark();
        if (watermark != Long.MIN_VALUE && time - watermark > maxFutureMs) {
            reject(length, "event time " + time + " is " + (time - watermark) + " ms ahead of the partition's watermark "
                    + watermark + ", more than max-future-ms " + maxFutureMs + "; the watermark was not moved");
            return;
        }
        onEvent(time);
    }

    /** Called after each poll, records read or not (processing-time work). */
    void afterPoll() {
    }

    /** The partition's watermark; Long.MIN_VALUE before its first event. */
    abstract long watermark();

    /** Appends a heartbeat at {@code eventTime} to the partition's log; read later like any record. */
    final void appendHeartbeat(final long eventTime) {
        log.appendHeartbeat(partition, eventTime);
    }

    abstract long lateEvents();

    /** Writes the subclass's state (after the position, which this class writes). */
    abstract void writeState(DataOutput data) throws IOException;

    /** Replaces the subclass's state with what {@link #writeState} wrote. */
    abstract void readState(DataInput data) throws IOException;

    /** The task's whole state in compact binary form: format, partition, read position, end of stream, then the subclass's. */
    final byte[] snapshot() {
        snapshotOutput.reset();
        try {
            snapshotOutput.writeInt(snapshotFormat);
            snapshotOutput.writeInt(partition);
            snapshotOutput.writeLong(lastIndex);
            snapshotOutput.writeBoolean(ended);
            writeState(snapshotOutput);
        } catch (final IOException e) {
            throw new UncheckedIOException("writing the state of job " + jobName + " partition " + partition + " failed", e);
        }
        return snapshotOutput.toByteArray();
    }

    /** Restores {@link #snapshot()}'s output; reading resumes after the saved position. */
    final void restore(final byte[] snapshot) {
        try (DataInputStream data = new DataInputStream(new ByteArrayInputStream(snapshot))) {
            final int format = data.readInt();
            if (format != snapshotFormat) {
                throw new IllegalStateException("snapshot of job " + jobName + " partition " + partition + " has format "
                        + format + ", this build reads " + snapshotFormat);
            }
            final int savedPartition = data.readInt();
            if (savedPartition != partition) {
                throw new IllegalStateException("bug: snapshot of partition " + savedPartition + " given to partition " + partition);
            }
            final long savedIndex = data.readLong();
            ended = data.readBoolean();
            readState(data);
            resumeAfter(savedIndex);
        } catch (final IOException e) {
            throw new UncheckedIOException("corrupt snapshot of job " + jobName + " partition " + partition, e);
        }
    }

    /** Reads and handles up to {@code max} records; returns how many (0 when nothing new is there). */
    final int poll(final int max) {
        if (reader == null) {
            reader = log.reader(partition, lastIndex);
        }
        int read = 0;
        while (read < max) {
            final int length = reader.next();
            if (length < 0) {
                break;
            }
            read++;
            lastIndex = reader.lastIndex();
            handle(length);
        }
        if (read > 0) {
            lastRecordNanos = System.nanoTime();
        }
        afterPoll();
        return read;
    }

    /** The buffer holding the record being handled. */
    final DirectBuffer buffer() {
        return reader.buffer();
    }

    /** The next poll reads after {@code index}, with a fresh reader; the idle clock restarts. */
    private void resumeAfter(final long index) {
        lastIndex = index;
        closeReader();
        lastRecordNanos = System.nanoTime();
    }

    /** Counts the record being handled as rejected and writes it to the job's rejected map with the reason. */
    final void reject(final int length, final String reason) {
        rejected++;
        final StringBuilder head = new StringBuilder();
        for (int i = 0; i < Math.min(16, Math.min(length, buffer().capacity())); i++) {
            head.append(String.format("%02x", buffer().getByte(i)));
        }
        out.put(rejectedMap, LateEvent.mapKey(partition, lastIndex),
                new RejectedRecord(partition, lastIndex, length, reason, head.toString()));
    }

    final boolean ended() {
        return ended;
    }

    final int partition() {
        return partition;
    }

    final long lastRecordNanos() {
        return lastRecordNanos;
    }

    /** Counts as a read now: the idle clock restarts. */
    final void markRead(final long nanos) {
        lastRecordNanos = nanos;
    }

    final long events() {
        return events;
    }

    final long rejected() {
        return rejected;
    }

    final long results() {
        return results;
    }

    void close() {
        closeReader();
    }

    private void closeReader() {
        if (reader != null) {
            reader.close();
            reader = null;
        }
    }
}
