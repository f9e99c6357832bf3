package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.jobs.event.EventRecord;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.IngestLog;
import io.streamgrid.jobs.pipeline.LateEvent;
import io.streamgrid.jobs.pipeline.RejectedRecord;
import io.streamgrid.jobs.pipeline.ResultHandler;
import io.streamgrid.jobs.pipeline.StateWriter;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.window.WindowEngine;
import io.streamgrid.jobs.window.WindowListener;

import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * One ingest-log partition inside a job: its reader position, window engine and result handler.
 * Everything it decides depends only on the partition's records in log order, so a restored run
 * replays to exactly the same state.
 */
final class PartitionRun<A> implements PartitionTask, WindowListener<A> {
    /** 2: ip-traffic baselines carry their last window start (baseline expiry). */
    private static final int SNAPSHOT_FORMAT = 2;

    private final WindowedJob<A> job;
    private final int partition;
    private final IngestLog log;
    private final StateWriter out;
    private final WindowEngine<A> engine;
    private final long maxFutureMs;
    private final ResultHandler<A> handler;
    private final EventRecord record = new EventRecord();
    private final SnapshotOutput snapshotOutput = new SnapshotOutput();
    private IngestLog.PartitionReader reader;
    private long lastIndex = IngestLog.START;
    /** System.nanoTime() of the last record read (or of creation, restore, heartbeat): for idle detection. */
    private long lastRecordNanos = System.nanoTime();
    private boolean ended;
    private long events;
    private long rejected;
    private long results;

    PartitionRun(final WindowedJob<A> job, final int partition, final IngestLog log, final StateWriter out) {
        this.job = job;
        this.partition = partition;
        this.log = log;
        this.out = out;
        this.engine = WindowEngine.create(job.policy(), job.aggregation(), this);
        this.maxFutureMs = job.policy().maxFutureMs();
        this.handler = job.newResultHandler();
    }

    @Override
    public int partition() {
        return partition;
    }

    @Override
    public long lateEvents() {
        return engine.lateEvents();
    }

    @Override
    public long events() {
        return events;
    }

    @Override
    public long rejected() {
        return rejected;
    }

    @Override
    public long results() {
        return results;
    }

    @Override
    public void appendHeartbeat(final long eventTime) {
        log.appendHeartbeat(partition, eventTime);
    }

    @Override
    public int poll(final int max) {
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
        return read;
    }

    private void handle(final int length) {
        if (length != EventRecord.LENGTH) {
            reject(length, "record length " + length + " bytes, expected " + EventRecord.LENGTH);
            return;
        }
        record.wrap(reader.buffer(), 0);
        final String invalid = record.validate();
        if (invalid != null) {
            reject(length, invalid);
            return;
        }
        final EventType type = record.type();
        if (type == EventType.END_OF_STREAM) {
            ended = true;
            engine.onEndOfStream();
            handler.onWatermark(engine.watermark(), out);
            return;
        }
        if (type == EventType.HEARTBEAT) {
            engine.onHeartbeat(record.timestamp());
            handler.onWatermark(engine.watermark(), out);
            return;
        }
        if (type != job.eventType()) {
            reject(length, "event type " + type + ", but job " + job.name() + " reads " + job.eventType());
            return;
        }
        final long watermark = engine.watermark();
        final long maxFuture = maxFutureMs;
        if (watermark != Long.MIN_VALUE && record.timestamp() - watermark > maxFuture) {
            reject(length, "event time " + record.timestamp() + " is " + (record.timestamp() - watermark)
                    + " ms ahead of the partition's watermark " + watermark + ", more than max-future-ms " + maxFuture
                    + "; the watermark was not moved");
            return;
        }
        events++;
        engine.onEvent(record);
        if (engine.watermark() != watermark) {
            handler.onWatermark(engine.watermark(), out);
        }
    }

    @Override
    public long watermark() {
        return engine.watermark();
    }

    @Override
    public long lastRecordNanos() {
        return lastRecordNanos;
    }

    @Override
    public void markRead(final long nanos) {
        lastRecordNanos = nanos;
    }

    private void reject(final int length, final String reason) {
        rejected++;
        final StringBuilder head = new StringBuilder();
        for (int i = 0; i < Math.min(16, Math.min(length, reader.buffer().capacity())); i++) {
            head.append(String.format("%02x", reader.buffer().getByte(i)));
        }
        out.put(job.rejectedMap(), LateEvent.mapKey(partition, lastIndex),
                new RejectedRecord(partition, lastIndex, length, reason, head.toString()));
    }

    @Override
    public void onWindow(final long key, final long start, final long end, final A value, final int updateSequence,
                         final boolean afterWatermark) {
        results++;
        handler.onWindow(key, start, end, value, updateSequence, afterWatermark, out);
    }

    @Override
    public void onRetract(final long key, final long start) {
        handler.onRetract(key, start, out);
    }

    @Override
    public void onLate(final EventRecord event, final long watermark, final String reason) {
        out.put(job.lateMap(), LateEvent.mapKey(partition, lastIndex), new LateEvent(partition, lastIndex,
                String.valueOf(event.type()), Long.toString(event.key()), event.timestamp(), event.sequence(), watermark, reason));
    }

    @Override
    public boolean ended() {
        return ended;
    }

    @Override
    public byte[] snapshot() {
        snapshotOutput.reset();
        final SnapshotOutput data = snapshotOutput;
        try {
            data.writeInt(SNAPSHOT_FORMAT);
            data.writeInt(partition);
            data.writeLong(lastIndex);
            data.writeBoolean(ended);
            engine.writeState(data);
            handler.writeState(data);
        } catch (final IOException e) {
            throw new UncheckedIOException("bug: writing to memory failed", e);
        }
        return snapshotOutput.toByteArray();
    }

    @Override
    public void restore(final byte[] snapshot) {
        try (DataInputStream data = new DataInputStream(new ByteArrayInputStream(snapshot))) {
            final int format = data.readInt();
            if (format != SNAPSHOT_FORMAT) {
                throw new IllegalStateException("snapshot of partition " + partition + " has format " + format
                        + ", this build reads " + SNAPSHOT_FORMAT);
            }
            final int savedPartition = data.readInt();
            if (savedPartition != partition) {
                throw new IllegalStateException("bug: snapshot of partition " + savedPartition + " given to partition " + partition);
            }
            lastIndex = data.readLong();
            ended = data.readBoolean();
            engine.readState(data);
            handler.readState(data);
        } catch (final IOException e) {
            throw new UncheckedIOException("corrupt snapshot of partition " + partition, e);
        }
        if (reader != null) {
            reader.close();
            reader = null;
        }
        lastRecordNanos = System.nanoTime();
    }

    @Override
    public void close() {
        if (reader != null) {
            reader.close();
        }
    }
}
