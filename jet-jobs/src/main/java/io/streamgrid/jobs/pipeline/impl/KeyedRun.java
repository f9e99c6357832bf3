package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.keyed.KeyedContext;
import io.streamgrid.jobs.keyed.KeyedFunction;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.SideOutput;
import io.streamgrid.jobs.keyed.StateCodec;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.pipeline.LateEvent;
import io.streamgrid.jobs.pipeline.StateWriter;
import io.streamgrid.jobs.pipeline.UnmatchedEvent;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.FieldType;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * One schema-log partition inside a keyed job: its reader position, watermark, keys with their
 * state and timers. It is also the {@link KeyedContext} handed to the function, bound to one key
 * per call (no object per call).
 *
 * <p>Order of work per event: checks (valid, not too far ahead, not beyond the allowed lateness),
 * the function — or, for a job in event-time order, the {@link HeldEvents} when the event is ahead
 * of the watermark — then the watermark moves and every event-time timer and held event it reached
 * is handled, earliest first (an event before the timers of its time; timers' ties in registration
 * order).
 */
final class KeyedRun<S> extends PartitionTask implements KeyedContext<S> {
    /**
     * 2: a read position per schema log (jobs reading several schemas); 3: emitted-event counts per
     * log and writer, the emitter's count; 4: the events held for event-time order; 5: the time each
     * key's state was written (state time-to-live); 6: each log's writer clocks.
     */
    private static final int SNAPSHOT_FORMAT = 6;

    private final KeyedJob<S> job;
    private final KeyedFunction<S> function;
    private final StateCodec<S> codec;
    private final TimePolicy policy;
    /** Per schema the job reads: where the key is in its records. */
    private final int[] keyOffsets;
    /** One per lookup, then one per map the job reads by key ({@link KeyedJob#reads()}). */
    private final RecordLookups lookups;
    private final EmittedEvents emitted;
    /** Per schema the job reads, per lookup: the field holding the lookup key. */
    private final KeyTable<S> keys;
    private final KeyTimers<S> timers = new KeyTimers<>();
    /** With {@link KeyedJob#eventTimeOrder()}: events ahead of the watermark, and a flyweight per schema to deliver them through. */
    private final boolean eventTimeOrder;
    private final HeldEvents held = new HeldEvents();
    private final SchemaRecord[] heldRecords;
    private long maxEventTime = Long.MIN_VALUE;
    private long watermark = Long.MIN_VALUE;
    private long late;

    /** The map a put or remove last wrote, known to be declared. */
    private String lastDeclaredMap;
    /** The side output last written and found declared: one reference comparison per call after the first. */
    private SideOutput<?> lastDeclaredOutput;

    // The key the context is bound to, and the call's time and lateness.
    private KeyEntry<S> current;
    private long currentTime;
    private boolean currentLate;
    /** Whether the bound call is a processing-time timer (its time is the wall clock's). */
    private boolean currentProcessing;
    private final StateExpiry expiry;

    /**
     * @param logs     the logs of {@link KeyedJob#schemas()}, in order
     * @param replicas one per {@link KeyedJob#lookups()}, then one per {@link KeyedJob#reads()}, in order
     * @param emitLogs one per {@link KeyedJob#emits()}, in order
     */
    KeyedRun(final KeyedJob<S> job, final int partition, final EventLog[] logs, final StateWriter out,
             final DimensionReplica[] replicas, final EventLog[] emitLogs) {
        super(partition, logs, out, job.name(), job.rejectedMap(), SNAPSHOT_FORMAT, job.policy().maxFutureMs());
        this.job = job;
        this.function = PrivateCopy.of(job.function()); // one per partition: Jet shares the job object between threads
        this.codec = job.codec();
        this.policy = job.policy();
        final SchemaLayout first = job.schema().layout();
        this.keys = new KeyTable<>(first.field(first.keyIndex()).type() == FieldType.STRING, codec);
        this.lookups = new RecordLookups(job, replicas);
        this.keyOffsets = new int[logs.length];
        for (int s = 0; s < logs.length; s++) {
            final SchemaLayout layout = job.schemas().get(s).layout();
            keyOffsets[s] = layout.offset(layout.keyIndex());
        }
        this.eventTimeOrder = job.eventTimeOrder();
        this.heldRecords = new SchemaRecord[logs.length];
        for (int s = 0; s < logs.length; s++) {
            heldRecords[s] = new SchemaRecord(job.schemas().get(s).layout());
        }
        this.emitted = new EmittedEvents(job.name(), job.emits(), emitLogs, logs[0].partitions());
        this.expiry = new StateExpiry(job.stateTtlMs(), job.stateTtlInProcessingTime());
    }

    // ---- PartitionTask ----

    @Override
    void afterPoll() {
        final long now = System.currentTimeMillis();
        fire(timers.processingTime, now);
        expiry.onWallClock(keys, now);
        emitted.announceClock(partition, watermark, System.nanoTime()); // after whatever the timers emitted
    }

    @Override
    void onEndOfStream() {
        advanceWatermark(Long.MAX_VALUE);
    }

    @Override
    void onHeartbeat(final long time) {
        maxEventTime = Math.max(maxEventTime, time);
        advanceWatermark(clocked(byEventTime()));
    }

    @Override
    void onClockMoved() {
        advanceWatermark(clocked(byEventTime()));
    }

    /** Where the events' times and heartbeats put the watermark: the newest minus the allowed disorder. */
    private long byEventTime() {
        return maxEventTime == Long.MIN_VALUE ? Long.MIN_VALUE : maxEventTime - policy.allowedDisorderMs();
    }

    @Override
    void onEvent(final long time) {
        events++; // every valid event taken in, late ones too (as windowed jobs count them)
        if (watermark != Long.MIN_VALUE && time < watermark - policy.allowedLatenessMs()) {
            late++;
            out.put(job.lateMap(), sideOutputKey(), new LateEvent(partition, lastIndex,
                    record.layout().schema().name(), keyText(), time, record.sequence(), watermark,
                    "event time " + time + " is " + (watermark - time) + " ms behind the watermark " + watermark
                            + ", more than allowed-lateness-ms " + policy.allowedLatenessMs()));
            return;
        }
        if (eventTimeOrder && (watermark == Long.MIN_VALUE || time > watermark)) {
            held.add(time, input, lastIndex, record.buffer(), record.offset(), record.length());
        } else {
            deliver(time, watermark != Long.MIN_VALUE && time < watermark);
        }
        if (time > maxEventTime && !fromWriterClockedLog()) {
            maxEventTime = time;
            advanceWatermark(clocked(byEventTime()));
        }
        if (timers.registeredDueAt(watermark)) {
            fire(timers.eventTime, watermark); // a timer registered at or before the watermark fires now
        }
    }

    /** The current record to the function (after its lookups), the context bound to its key. */
    private void deliver(final long time, final boolean isLate) {
        if (lookUp()) {
            final KeyEntry<S> entry = entryOfRecord();
            bind(entry, time, isLate);
            function.onEvent(record, this);
            release(entry);
            lookups.clear();
        }
    }

    /**
     * Delivers the earliest held event: for the call it is the record being handled (its schema,
     * its index in its log for side-output keys), then the one handled before is again.
     */
    private void releaseHeld() {
        final SchemaRecord handled = record;
        final int handledInput = input;
        final long handledIndex = lastIndex;
        final int slot = held.takeFirst();
        input = held.input(slot);
        lastIndex = held.logIndex(slot);
        record = heldRecords[input].wrap(held.buffer(), held.offset(slot), held.length(slot));
        deliver(record.eventTime(), false);
        held.free(slot);
        record = handled;
        input = handledInput;
        lastIndex = handledIndex;
    }

    /**
     * Makes the job's lookups for the current record; returns false when a key is missing from a
     * lookup that side-outputs such events (then written to the unmatched map).
     */
    private boolean lookUp() {
        final int missing = lookups.makeAll(record, input);
        if (missing < 0) {
            return true;
        }
        out.put(job.unmatchedMap(), sideOutputKey(), new UnmatchedEvent(partition, lastIndex, record.layout().schema().name(),
                keyText(), record.eventTime(), record.sequence(), lookups.map(missing), String.valueOf(lookups.keyOf(record, input, missing))));
        return false;
    }

    private String keyText() {
        return keys.textAt(record.buffer(), record.offset() + keyOffsets[input]);
    }

    private KeyEntry<S> entryOfRecord() {
        return keys.entryAt(record.buffer(), record.offset() + keyOffsets[input]);
    }

    private void bind(final KeyEntry<S> entry, final long time, final boolean isLate) {
        current = entry;
        currentTime = time;
        currentLate = isLate;
        expiry.check(entry, watermark);
    }

    /** Unbinds the context; the table drops the key when it holds nothing, and takes a new one that holds something ({@link KeyTable#settle}). */
    private void release(final KeyEntry<S> entry) {
        current = null;
        keys.settle(entry);
    }

    private void advanceWatermark(final long candidate) {
        if (candidate > watermark) {
            watermark = candidate;
            fire(timers.eventTime, watermark);
            expiry.onWatermark(keys, watermark);
        }
    }

    /**
     * Fires the timers of {@code queue} due at {@code upTo}, earliest first (event time: the
     * watermark; processing time: now). Event time: the held events due are delivered among them,
     * each before the timers of its time.
     */
    private void fire(final TimerQueue queue, final long upTo) {
        final boolean eventTime = queue == timers.eventTime;
        if (eventTime) {
            timers.firingEventTime();
        }
        while (true) {
            final boolean timerDue = queue.hasDue(upTo);
            if (eventTime && held.hasDue(timerDue ? queue.peekTime() : upTo)) {
                releaseHeld();
                continue;
            }
            if (!timerDue) {
                return;
            }
            final long time = queue.peekTime();
            @SuppressWarnings("unchecked")
            final KeyEntry<S> entry = (KeyEntry<S>) queue.pollEntry();
            bind(entry, time, false);
            currentProcessing = !eventTime;
            if (eventTime) {
                function.onTimer(time, this);
            } else {
                function.onProcessingTimer(time, this);
            }
            currentProcessing = false;
            release(entry);
        }
    }

    @Override
    public long watermark() {
        return watermark;
    }

    @Override
    public long lateEvents() {
        return late;
    }

    /** Keys holding state or timers. */
    int keyCount() {
        return keys.size();
    }

    // ---- KeyedContext ----

    @Override
    public long longKey() {
        if (keys.stringKeys()) {
            throw new IllegalStateException("schema " + job.schema().name() + " has a string key: use stringKey()");
        }
        return bound().longKey;
    }

    @Override
    public String stringKey() {
        if (!keys.stringKeys()) {
            throw new IllegalStateException("schema " + job.schema().name() + " has a long key: use longKey()");
        }
        return bound().stringKey;
    }

    @Override
    public S state() {
        return bound().state;
    }

    @Override
    public void setState(final S state) {
        bound().state = state;
        // Event time of the write: the call's, or for a processing-time timer the watermark.
        expiry.written(current, currentProcessing ? watermark : currentTime);
    }

    @Override
    public void clearState() {
        bound().state = null;
    }

    @Override
    public long time() {
        bound();
        return currentTime;
    }

    @Override
    public boolean isLate() {
        bound();
        return currentLate;
    }

    @Override
    public <V> V lookup(final String map) {
        bound();
        return lookups.found(map);
    }

    @Override
    public SchemaRecord lookupRecord(final String map) {
        bound();
        return lookups.foundRecord(map);
    }

    @Override
    public <V> V lookup(final String map, final Object key) {
        bound();
        return lookups.get(map, key);
    }

    @Override
    public void registerTimer(final long time) {
        timers.register(timers.eventTime, bound(), time);
    }

    @Override
    public void deleteTimer(final long time) {
        timers.delete(timers.eventTime, bound(), time);
    }

    @Override
    public void registerProcessingTimer(final long wallClockMs) {
        timers.register(timers.processingTime, bound(), wallClockMs);
    }

    @Override
    public void deleteProcessingTimer(final long wallClockMs) {
        timers.delete(timers.processingTime, bound(), wallClockMs);
    }

    @Override
    public void put(final String map, final Object key, final Object value) {
        bound();
        declared(map);
        results++;
        out.put(map, key, value);
    }

    @Override
    public <V> void output(final SideOutput<V> output, final Object key, final V value) {
        bound();
        if (output != lastDeclaredOutput) {
            if (!job.sideOutputs().contains(output)) {
                throw new IllegalArgumentException("job " + job.name() + " writes " + output + ", which it does not declare: add it "
                        + "to KeyedJob.Builder.sideOutputs (it declares " + job.sideOutputs() + ")");
            }
            lastDeclaredOutput = output;
        }
        if (!output.type().isInstance(value)) {
            throw new IllegalArgumentException("job " + job.name() + " writes " + (value == null ? "null" : "a "
                    + value.getClass().getName()) + " to " + output + ": a side output takes values of its type");
        }
        results++;
        out.put(output.map(), key, value);
    }

    @Override
    public void remove(final String map, final Object key) {
        bound();
        declared(map);
        results++;
        out.remove(map, key);
    }

    /**
     * Refuses a write to a map the job does not declare ({@code KeyedJob.Builder.writes}): the CLI
     * reports, a replay renames and persistence covers the declared maps only. A function writes one
     * or a few maps, so most calls cost one reference comparison.
     */
    private void declared(final String map) {
        if (map != lastDeclaredMap) {
            if (!job.stateMaps().contains(map)) {
                throw new IllegalArgumentException("job " + job.name() + " writes map " + map + ", which it does not declare: "
                        + "add it to KeyedJob.Builder.writes (it declares " + job.stateMaps() + ")");
            }
            lastDeclaredMap = map;
        }
    }

    @Override
    public SchemaRecord newEvent(final EventSchema schema) {
        bound();
        return emitted.newEvent(schema);
    }

    @Override
    public void emit(final SchemaRecord event) {
        bound();
        emitted.emit(event, partition);
    }

    private KeyEntry<S> bound() {
        if (current == null) {
            throw new IllegalStateException("the keyed context is only valid during onEvent or onTimer");
        }
        return current;
    }

    // ---- snapshot ----

    @Override
    void writeState(final DataOutput data) throws IOException {
        data.writeLong(maxEventTime);
        data.writeLong(watermark);
        data.writeLong(timers.sequence());
        data.writeLong(emitted.count());
        held.write(data);
        keys.write(data);
    }

    @Override
    void readState(final DataInput data) throws IOException {
        maxEventTime = data.readLong();
        watermark = data.readLong();
        final long timerSequence = data.readLong();
        emitted.restoreCount(data.readLong());
        held.read(data);
        keys.read(data);
        timers.rebuild(keys.entries(), timerSequence);
    }
}
