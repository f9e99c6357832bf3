package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedContext;
import io.streamgrid.jobs.keyed.KeyedFunction;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.Lookup;
import io.streamgrid.jobs.keyed.StateCodec;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.pipeline.LateEvent;
import io.streamgrid.jobs.pipeline.StateWriter;
import io.streamgrid.jobs.pipeline.UnmatchedEvent;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.FieldType;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2ObjectHashMap;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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
     * log and writer, the emitter's count; 4: the events held for event-time order.
     */
    private static final int SNAPSHOT_FORMAT = 4;
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private final KeyedJob<S> job;
    private final KeyedFunction<S> function;
    private final StateCodec<S> codec;
    private final TimePolicy policy;
    private final boolean stringKey;
    /** Per schema the job reads: where the key is in its records. */
    private final int[] keyOffsets;
    /** One per lookup, then one per map the job reads by key ({@link KeyedJob#reads()}). */
    private final DimensionReplica[] replicas;
    private final Lookup[] lookups;
    private final List<String> dimensionMaps;
    private final List<EventSchema> emitSchemas;
    /** Per emitted schema: its log (the processor's instance), the record handed out by newEvent and its buffer. */
    private final EventLog[] emitLogs;
    private final SchemaRecord[] emitRecords;
    private final UnsafeBuffer[] emitBuffers;
    /** Events this partition emitted, in every emitted log together: the count in their sequences. */
    private long emitted;
    /** Per schema the job reads, per lookup: the field holding the lookup key. */
    private final int[][] lookupFields;
    private final Object[] found;
    private final Long2ObjectHashMap<KeyEntry<S>> longKeys = new Long2ObjectHashMap<>();
    private final Utf8KeyMap<S> stringKeys = new Utf8KeyMap<>();
    private final TimerQueue eventTimers = new TimerQueue(false);
    private final TimerQueue processingTimers = new TimerQueue(true);
    /** With {@link KeyedJob#eventTimeOrder()}: events ahead of the watermark, and a flyweight per schema to deliver them through. */
    private final boolean eventTimeOrder;
    private final HeldEvents held = new HeldEvents();
    private final SchemaRecord[] heldRecords;
    private long maxEventTime = Long.MIN_VALUE;
    private long watermark = Long.MIN_VALUE;
    private long timerSequence;
    /**
     * The earliest event-time timer registered since timers last fired: only such a timer can be
     * due while the watermark stands still (the others were later than it when it last moved).
     */
    private long earliestRegistered = Long.MAX_VALUE;
    private long late;

    // The key the context is bound to, and the call's time and lateness.
    private KeyEntry<S> current;
    private long currentTime;
    private boolean currentLate;

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
        this.stringKey = first.field(first.keyIndex()).type() == FieldType.STRING;
        this.replicas = replicas;
        this.lookups = job.lookups().toArray(new Lookup[0]);
        this.keyOffsets = new int[logs.length];
        this.lookupFields = new int[logs.length][lookups.length];
        for (int s = 0; s < logs.length; s++) {
            final SchemaLayout layout = job.schemas().get(s).layout();
            keyOffsets[s] = layout.offset(layout.keyIndex());
            for (int i = 0; i < lookups.length; i++) {
                lookupFields[s][i] = layout.indexOf(lookups[i].keyField());
            }
        }
        this.found = new Object[lookups.length];
        this.eventTimeOrder = job.eventTimeOrder();
        this.heldRecords = new SchemaRecord[logs.length];
        for (int s = 0; s < logs.length; s++) {
            heldRecords[s] = new SchemaRecord(job.schemas().get(s).layout());
        }
        this.dimensionMaps = job.dimensionMaps();
        this.emitSchemas = job.emits();
        this.emitLogs = emitLogs;
        this.emitRecords = new SchemaRecord[emitLogs.length];
        this.emitBuffers = new UnsafeBuffer[emitLogs.length];
        for (int i = 0; i < emitLogs.length; i++) {
            emitRecords[i] = new SchemaRecord(emitSchemas.get(i).layout());
            emitBuffers[i] = new UnsafeBuffer(new byte[emitSchemas.get(i).layout().length()]);
        }
    }

    // ---- PartitionTask ----

    @Override
    void afterPoll() {
        fire(processingTimers, System.currentTimeMillis());
    }

    @Override
    void onEndOfStream() {
        advanceWatermark(Long.MAX_VALUE);
    }

    @Override
    void onHeartbeat(final long time) {
        maxEventTime = Math.max(maxEventTime, time);
        advanceWatermark(time - policy.allowedDisorderMs());
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
        if (time > maxEventTime) {
            maxEventTime = time;
            advanceWatermark(time - policy.allowedDisorderMs());
        }
        if (earliestRegistered <= watermark) {
            fire(eventTimers, watermark); // a timer registered at or before the watermark fires now
        }
    }

    /** The current record to the function (after its lookups), the context bound to its key. */
    private void deliver(final long time, final boolean isLate) {
        if (lookUp()) {
            final KeyEntry<S> entry = entryOfRecord();
            bind(entry, time, isLate);
            function.onEvent(record, this);
            release(entry);
            Arrays.fill(found, null);
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
     * Makes the job's lookups for the current record into {@link #found}; returns false when a key
     * is missing from a lookup that side-outputs such events (then written to the unmatched map).
     */
    private boolean lookUp() {
        for (int i = 0; i < lookups.length; i++) {
            final Object key = lookupKey(lookupFields[input][i]);
            found[i] = replicas[i].get(key);
            if (found[i] == null && lookups[i].onMissing() == Lookup.OnMissing.SIDE_OUTPUT) {
                Arrays.fill(found, null);
                out.put(job.unmatchedMap(), sideOutputKey(), new UnmatchedEvent(partition, lastIndex,
                        record.layout().schema().name(), keyText(), record.eventTime(), record.sequence(), lookups[i].map(), String.valueOf(key)));
                return false;
            }
        }
        return true;
    }

    private Object lookupKey(final int field) {
        return switch (record.layout().field(field).type()) {
            case STRING -> record.getString(field);
            case INT -> (long) record.getInt(field);
            default -> record.getLong(field);
        };
    }

    private String keyText() {
        final DirectBuffer buffer = record.buffer();
        final int at = record.offset() + keyOffsets[input];
        return stringKey ? buffer.getStringWithoutLengthUtf8(at + 2, buffer.getShort(at, ORDER) & 0xffff)
                : Long.toString(buffer.getLong(at, ORDER));
    }

    private KeyEntry<S> entryOfRecord() {
        final DirectBuffer buffer = record.buffer();
        final int at = record.offset() + keyOffsets[input];
        if (!stringKey) {
            final long key = buffer.getLong(at, ORDER);
            KeyEntry<S> entry = longKeys.get(key);
            if (entry == null) {
                entry = new KeyEntry<>(key);
                longKeys.put(key, entry);
            }
            return entry;
        }
        final int length = buffer.getShort(at, ORDER) & 0xffff;
        final long hash = SchemaLog.stringKeyHash(buffer, at + 2, length);
        KeyEntry<S> entry = stringKeys.get(buffer, at + 2, length, hash);
        if (entry == null) {
            final byte[] bytes = new byte[length];
            buffer.getBytes(at + 2, bytes);
            entry = new KeyEntry<>(bytes, new String(bytes, StandardCharsets.UTF_8), hash);
            stringKeys.add(entry);
        }
        return entry;
    }

    private void bind(final KeyEntry<S> entry, final long time, final boolean isLate) {
        current = entry;
        currentTime = time;
        currentLate = isLate;
    }

    /** Unbinds the context; drops the key when it holds nothing. */
    private void release(final KeyEntry<S> entry) {
        current = null;
        if (entry.isEmpty()) {
            if (stringKey) {
                stringKeys.remove(entry);
            } else {
                longKeys.remove(entry.longKey);
            }
        }
    }

    private void advanceWatermark(final long candidate) {
        if (candidate > watermark) {
            watermark = candidate;
            fire(eventTimers, watermark);
        }
    }

    /**
     * Fires the timers of {@code queue} due at {@code upTo}, earliest first (event time: the
     * watermark; processing time: now). Event time: the held events due are delivered among them,
     * each before the timers of its time.
     */
    private void fire(final TimerQueue queue, final long upTo) {
        final boolean eventTime = queue == eventTimers;
        if (eventTime) {
            earliestRegistered = Long.MAX_VALUE;
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
            if (eventTime) {
                function.onTimer(time, this);
            } else {
                function.onProcessingTimer(time, this);
            }
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
        return stringKey ? stringKeys.size() : longKeys.size();
    }

    // ---- KeyedContext ----

    @Override
    public long longKey() {
        if (stringKey) {
            throw new IllegalStateException("schema " + job.schema().name() + " has a string key: use stringKey()");
        }
        return bound().longKey;
    }

    @Override
    public String stringKey() {
        if (!stringKey) {
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
    @SuppressWarnings("unchecked")
    public <V> V lookup(final String map) {
        bound();
        final int index = dimensionIndex(map);
        if (index >= lookups.length) {
            throw new IllegalArgumentException("job " + job.name() + " reads " + map + " by key only (KeyedJob.Builder.reads): "
                    + "use lookup(map, key), or declare a lookup to have one made per event");
        }
        return (V) found[index];
    }

    @Override
    @SuppressWarnings("unchecked")
    public <V> V lookup(final String map, final Object key) {
        bound();
        return (V) replicas[dimensionIndex(map)].get(key);
    }

    private int dimensionIndex(final String map) {
        final int index = dimensionMaps.indexOf(map);
        if (index < 0) {
            throw new IllegalArgumentException("job " + job.name() + " declares no lookup in " + map + " and does not read it; "
                    + "its dimension maps are " + dimensionMaps);
        }
        return index;
    }

    @Override
    public void registerTimer(final long time) {
        register(eventTimers, time);
    }

    @Override
    public void deleteTimer(final long time) {
        delete(eventTimers, time);
    }

    @Override
    public void registerProcessingTimer(final long wallClockMs) {
        register(processingTimers, wallClockMs);
    }

    @Override
    public void deleteProcessingTimer(final long wallClockMs) {
        delete(processingTimers, wallClockMs);
    }

    /** One timer per key and time: registering it again does nothing. */
    private void register(final TimerQueue queue, final long time) {
        final KeyEntry<S> entry = bound();
        if (queue.slotOf(entry, time) < 0) {
            queue.add(entry, time, timerSequence++);
            if (queue == eventTimers) {
                earliestRegistered = Math.min(earliestRegistered, time);
            }
        }
    }

    private void delete(final TimerQueue queue, final long time) {
        final KeyEntry<S> entry = bound();
        final int slot = queue.slotOf(entry, time);
        if (slot >= 0) {
            queue.remove(entry, slot);
        }
    }

    @Override
    public void put(final String map, final Object key, final Object value) {
        bound();
        results++;
        out.put(map, key, value);
    }

    @Override
    public void remove(final String map, final Object key) {
        bound();
        results++;
        out.remove(map, key);
    }

    @Override
    public SchemaRecord newEvent(final EventSchema schema) {
        bound();
        for (int i = 0; i < emitRecords.length; i++) {
            if (emitSchemas.get(i).name().equals(schema.name())) {
                return emitRecords[i].wrapForWrite(emitBuffers[i], 0);
            }
        }
        throw new IllegalArgumentException("job " + job.name() + " does not emit schema " + schema.name() + "; it emits "
                + emitSchemas.stream().map(EventSchema::name).toList() + " (KeyedJob.Builder.emits)");
    }

    @Override
    public void emit(final SchemaRecord event) {
        bound();
        int i = 0;
        while (i < emitRecords.length && emitRecords[i] != event) {
            i++;
        }
        if (i == emitRecords.length) {
            throw new IllegalArgumentException("job " + job.name() + " emits only events made by newEvent(schema)");
        }
        final String invalid = event.validate();
        if (invalid != null) {
            throw new IllegalArgumentException("job " + job.name() + " emitted an invalid " + emitSchemas.get(i).name() + " event: " + invalid);
        }
        emitted++;
        event.sequence(Emitted.sequence(partition, emitted));
        emitBuffers[i].putByte(0, SchemaLayout.KIND_EMITTED);
        emitLogs[i].append(event);
    }

    private KeyEntry<S> bound() {
        if (current == null) {
            throw new IllegalStateException("the keyed context is only valid during onEvent or onTimer");
        }
        return current;
    }

    // ---- snapshot ----

    private List<KeyEntry<S>> entries() {
        final List<KeyEntry<S>> entries = new ArrayList<>(keyCount());
        if (stringKey) {
            stringKeys.forEach(entries::add);
        } else {
            longKeys.values().forEach(entries::add);
        }
        return entries;
    }

    /** Rebuilds both timer queues from the entries' timers (after a restore). */
    private void rebuildTimers() {
        eventTimers.clear();
        processingTimers.clear();
        for (final KeyEntry<S> entry : entries()) {
            eventTimers.restore(entry);
            processingTimers.restore(entry);
        }
    }

    @Override
    void writeState(final DataOutput data) throws IOException {
        data.writeLong(maxEventTime);
        data.writeLong(watermark);
        data.writeLong(timerSequence);
        data.writeLong(emitted);
        held.write(data);
        final List<KeyEntry<S>> entries = entries();
        data.writeInt(entries.size());
        for (final KeyEntry<S> entry : entries) {
            if (stringKey) {
                data.writeShort(entry.keyBytes.length);
                data.write(entry.keyBytes);
            } else {
                data.writeLong(entry.longKey);
            }
            data.writeBoolean(entry.state != null);
            if (entry.state != null) {
                codec.write(entry.state, data);
            }
            writeTimers(data, entry.timers, entry.timerCount);
            writeTimers(data, entry.processingTimers, entry.processingTimerCount);
        }
    }

    /** Time and sequence of each timer; positions in the queue are rebuilt on restore. */
    private static void writeTimers(final DataOutput data, final long[] timers, final int count) throws IOException {
        data.writeInt(count);
        for (int slot = 0; slot < count; slot++) {
            data.writeLong(timers[KeyEntry.WIDTH * slot]);
            data.writeLong(timers[KeyEntry.WIDTH * slot + 1]);
        }
    }

    @Override
    void readState(final DataInput data) throws IOException {
        longKeys.clear();
        stringKeys.clear();
        maxEventTime = data.readLong();
        watermark = data.readLong();
        timerSequence = data.readLong();
        emitted = data.readLong();
        held.read(data);
        final int count = data.readInt();
        for (int k = 0; k < count; k++) {
            final KeyEntry<S> entry;
            if (stringKey) {
                final byte[] bytes = new byte[data.readShort() & 0xffff];
                data.readFully(bytes);
                entry = new KeyEntry<>(bytes, new String(bytes, StandardCharsets.UTF_8),
                        SchemaLog.stringKeyHash(new org.agrona.concurrent.UnsafeBuffer(bytes), 0, bytes.length));
                stringKeys.add(entry);
            } else {
                entry = new KeyEntry<>(data.readLong());
                longKeys.put(entry.longKey, entry);
            }
            if (data.readBoolean()) {
                entry.state = codec.read(data);
            }
            entry.timerCount = data.readInt();
            entry.timers = readTimers(data, entry.timerCount);
            entry.processingTimerCount = data.readInt();
            entry.processingTimers = readTimers(data, entry.processingTimerCount);
        }
        rebuildTimers();
    }

    private static long[] readTimers(final DataInput data, final int count) throws IOException {
        final long[] timers = new long[KeyEntry.WIDTH * Math.max(2, count)];
        for (int slot = 0; slot < count; slot++) {
            timers[KeyEntry.WIDTH * slot] = data.readLong();
            timers[KeyEntry.WIDTH * slot + 1] = data.readLong();
        }
        return timers;
    }

}
