package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.jobs.event.EventRecord;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.IngestLog;
import io.streamgrid.jobs.pipeline.LateEvent;
import io.streamgrid.jobs.pipeline.ResultHandler;
import io.streamgrid.jobs.pipeline.StateWriter;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.window.WindowEngine;
import io.streamgrid.jobs.window.WindowListener;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * One ingest-log partition inside a job: its reader position, window engine and result handler.
 * Everything it decides depends only on the partition's records in log order, so a restored run
 * replays to exactly the same state.
 */
final class PartitionRun<A> extends PartitionTask implements WindowListener<A> {
    /** 2: ip-traffic baselines carry their last window start (baseline expiry). */
    private static final int SNAPSHOT_FORMAT = 2;

    private final WindowedJob<A> job;
    private final IngestLog log;
    private final WindowEngine<A> engine;
    private final long maxFutureMs;
    private final ResultHandler<A> handler;
    private final EventRecord record = new EventRecord();

    PartitionRun(final WindowedJob<A> job, final int partition, final IngestLog log, final StateWriter out) {
        super(partition, out, job.name(), job.rejectedMap(), SNAPSHOT_FORMAT);
        this.job = job;
        this.log = log;
        this.engine = WindowEngine.create(job.policy(), job.aggregation(), this);
        this.maxFutureMs = job.policy().maxFutureMs();
        this.handler = job.newResultHandler();
    }

    @Override
    public long lateEvents() {
        return engine.lateEvents();
    }

    @Override
    public void appendHeartbeat(final long eventTime) {
        log.appendHeartbeat(partition, eventTime);
    }

    @Override
    IngestLog.PartitionReader openReader(final long lastReadIndex) {
        return log.reader(partition, lastReadIndex);
    }

    @Override
    void handle(final int length) {
        if (length != EventRecord.LENGTH) {
            reject(length, "record length " + length + " bytes, expected " + EventRecord.LENGTH);
            return;
        }
        record.wrap(buffer(), 0);
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
    void writeState(final DataOutput data) throws IOException {
        engine.writeState(data);
        handler.writeState(data);
    }

    @Override
    void readState(final DataInput data) throws IOException {
        engine.readState(data);
        handler.readState(data);
    }

}
