package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.pipeline.LateEvent;
import io.streamgrid.jobs.pipeline.ResultHandler;
import io.streamgrid.jobs.pipeline.StateWriter;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.FieldType;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.window.impl.WindowEngine;
import io.streamgrid.jobs.window.impl.WindowListener;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * One schema-log partition inside a windowed job: its window engine and result handler on top of
 * what every {@link PartitionTask} keeps. Everything it decides depends only on the partition's
 * records in log order, so a restored run replays to exactly the same state.
 */
final class PartitionRun<A> extends PartitionTask implements WindowListener<A> {
    /**
     * 3: read positions are schema-log indexes (the fixed-layout ingest log is gone); 4: emitted-event
     * counts per writer; 5: each log's writer clocks, the count of events the partition emitted.
     */
    private static final int SNAPSHOT_FORMAT = 5;

    private final WindowedJob<A> job;
    private final WindowEngine<A> engine;
    private final ResultHandler<A> handler;
    /** Numbers for a string-keyed schema's keys (the engines key by long); null for a long key. */
    private final StringKeyIds stringKeys;
    private final int keyOffset;
    private final EmittedEvents emitted;
    /** What the handler writes to: the task's maps, and the logs the job emits into. */
    private final StateWriter handlerOut;

    /** @param emitLogs one per {@link WindowedJob#emits()}, in order */
    PartitionRun(final WindowedJob<A> job, final int partition, final EventLog log, final StateWriter out, final EventLog[] emitLogs) {
        super(partition, new EventLog[] {log}, out, job.name(), job.rejectedMap(), SNAPSHOT_FORMAT, job.policy().maxFutureMs());
        this.job = job;
        this.engine = WindowEngine.create(job.policy(), job.aggregation(), this);
        this.handler = job.newResultHandler();
        this.emitted = new EmittedEvents(job.name(), job.emits(), emitLogs, log.partitions());
        this.handlerOut = emitLogs.length == 0 ? out : new HandlerOut();
        final SchemaLayout layout = job.schema().layout();
        this.stringKeys = layout.type(layout.keyIndex()) == FieldType.STRING ? new StringKeyIds() : null;
        this.keyOffset = layout.offset(layout.keyIndex());
    }

    @Override
    public long lateEvents() {
        return engine.lateEvents();
    }

    /** Tells the logs the job emits into how far this partition's watermark came (after what its windows emitted). */
    @Override
    void afterPoll() {
        emitted.announceClock(partition, engine.watermark(), System.nanoTime());
    }

    @Override
    void onEndOfStream() {
        engine.onEndOfStream();
        handler.onWatermark(engine.watermark(), handlerOut);
        emitted.releaseHeld(partition);
    }

    @Override
    void onHeartbeat(final long time) {
        engine.onHeartbeat(time);
        handler.onWatermark(engine.watermark(), handlerOut);
        emitted.releaseHeld(partition);
    }

    @Override
    void onEvent(final long time) {
        final long watermark = engine.watermark();
        events++;
        final long key = stringKeys == null ? record.keyLong() : stringKeys.idAt(record.buffer(), record.offset() + keyOffset);
        if (fromWriterClockedLog()) {
            engine.onEventAtClock(record, key);
        } else {
            engine.onEvent(record, key);
        }
        if (engine.watermark() != watermark) {
            handler.onWatermark(engine.watermark(), handlerOut);
        }
        emitted.releaseHeld(partition);
    }

    @Override
    void onClockMoved() {
        final long watermark = engine.watermark();
        engine.advanceTo(clocked(Long.MIN_VALUE)); // one log, clocked by its writers: their clock alone
        if (engine.watermark() != watermark) {
            handler.onWatermark(engine.watermark(), handlerOut);
        }
        emitted.releaseHeld(partition);
    }

    @Override
    public long watermark() {
        return engine.watermark();
    }

    @Override
    public void onWindow(final long key, final long start, final long end, final A value, final int updateSequence,
                         final boolean afterWatermark) {
        results++;
        if (stringKeys == null) {
            handler.onWindow(key, start, end, value, updateSequence, afterWatermark, handlerOut);
        } else {
            handler.onWindow(stringKeys.keyOf(key), start, end, value, updateSequence, afterWatermark, handlerOut);
        }
    }

    @Override
    public void onRetract(final long key, final long start) {
        if (stringKeys == null) {
            handler.onRetract(key, start, handlerOut);
        } else {
            handler.onRetract(stringKeys.keyOf(key), start, handlerOut);
        }
    }

    @Override
    public void onKeyDropped(final long key) {
        if (stringKeys != null) {
            stringKeys.drop(key);
        }
    }

    @Override
    public void onLate(final SchemaRecord event, final long watermark, final String reason) {
        out.put(job.lateMap(), sideOutputKey(), new LateEvent(partition, lastIndex,
                job.schema().name(), stringKeys == null ? Long.toString(event.keyLong()) : event.getString(event.layout().keyIndex()),
                event.eventTime(), event.sequence(), watermark, reason));
    }

    @Override
    void writeState(final DataOutput data) throws IOException {
        data.writeLong(emitted.count());
        engine.writeState(data);
        handler.writeState(data);
        if (stringKeys != null) {
            stringKeys.write(data);
        }
    }

    @Override
    void readState(final DataInput data) throws IOException {
        emitted.restoreCount(data.readLong());
        engine.readState(data);
        handler.readState(data);
        if (stringKeys != null) {
            stringKeys.read(data);
        }
    }

    /** The task's maps, and the job's emitted logs numbered as this partition's events. */
    private final class HandlerOut implements StateWriter {
        @Override
        public void put(final String map, final Object key, final Object value) {
            out.put(map, key, value);
        }

        @Override
        public void remove(final String map, final Object key) {
            out.remove(map, key);
        }

        @Override
        public SchemaRecord newEvent(final EventSchema schema) {
            return emitted.newEvent(schema);
        }

        @Override
        public void emit(final SchemaRecord event) {
            emitted.hold(event); // numbered in an order of their own when the record's work is done (releaseHeld)
        }
    }
}
