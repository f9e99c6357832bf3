package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.jobs.ingest.LogReader;
import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.ingest.PartitionReader;
import io.streamgrid.jobs.ingest.LogPositions;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.LateEvent;
import io.streamgrid.jobs.pipeline.RejectedRecord;
import io.streamgrid.jobs.pipeline.StateWriter;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.DirectBuffer;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;

/**
 * One partition's work inside a job: the same partition of each schema log the job reads, its read
 * positions, and the state it builds from their records. Everything it decides depends only on
 * those records, so a restored task replays to exactly the same state. Single-threaded.
 *
 * <p>This class reads (in batches, from the saved positions), keeps the idle clock and the
 * counters, tells control records from events, and rejects records that are not valid events of
 * their schema or are too far ahead of the watermark; subclasses handle the events and control
 * records and own the rest of the state.
 *
 * <p>Several logs (a job reading several co-partitioned schemas) are merged deterministically: the
 * next record handled is the earliest of the logs' next records (event time; a heartbeat's time;
 * the end of a log last), ties going to the log declared first. A log with nothing new holds the
 * others back — the merge cannot know what it will hold — until its next record arrives, its end of
 * stream is read, or the processor appends a heartbeat to it after the idle timeout. Since the
 * heartbeat is in the log, a replay merges exactly as the first run did.
 *
 * <p>Events a job emitted into a log ({@link SchemaLayout#KIND_EMITTED}) and events applications
 * published ({@link SchemaLayout#KIND_PUBLISHED}) are read once per writer and count: a restored
 * writer emits again what it had emitted after its snapshot, and those
 * repeats are dropped here (counted in {@link #repeats()}), the highest count per writer being
 * part of this task's snapshot.
 *
 * <p>A log a job emits into is clocked by its writers, not by its events' times: each of the
 * emitting job's partitions announces its watermark into it ({@link SchemaLayout#KIND_WRITER_CLOCK}),
 * and the log's clock is the earliest writer's — so events of a writer that lags are never late
 * for another's progress, and no allowed disorder has to cover the writers' drift. The log's
 * stream ends when every writer's has. Such a log is known by its emitter's claim, or else by its
 * first emitted event or writer clock.
 */
abstract class PartitionTask {
    final int partition;
    final StateWriter out;
    private final String jobName;
    private final String rejectedMap;
    private final TaskSnapshot snapshot;
    private final PartitionInput[] inputs;
    private final long maxFutureMs;
    private long skipBefore = Long.MIN_VALUE;
    private final WallClockRules wallClock;
    /** The event being handled (a flyweight over its reader's buffer), of {@link #input}'s schema. */
    SchemaRecord record;
    /** Which of the job's schemas {@link #record} is of (0 for a job reading one). */
    int input;
    /** Index of the record being handled in its log (after a restore, of the last one handled). */
    long lastIndex = PartitionReader.START;
    /** Valid events taken in (late ones too; not rejected, repeated or skipped records). */
    long events;
    long rejected;
    long results;
    /** Valid events skipped for {@link #skipEventsBefore}. */
    long skipped;
    /** Emitted events dropped because their writer had emitted them before (after its restore). */
    long repeats;
    /** Whether any log is clocked by its writers ({@link PartitionInput#writerClocked}). */
    private boolean anyWriterClocked;

    /**
     * @param logs           the logs the job reads, in declaration order (all with this partition)
     * @param snapshotFormat the version of the subclass's snapshot layout, checked on restore
     * @param maxFutureMs    events further ahead of the watermark are rejected
     */
    PartitionTask(final int partition, final EventLog[] logs, final StateWriter out, final String jobName, final String rejectedMap,
                  final int snapshotFormat, final long maxFutureMs) {
        this.partition = partition;
        this.out = out;
        this.jobName = jobName;
        this.rejectedMap = rejectedMap;
        this.snapshot = new TaskSnapshot(jobName, partition, snapshotFormat);
        this.maxFutureMs = maxFutureMs;
        this.wallClock = new WallClockRules(maxFutureMs);
        this.inputs = new PartitionInput[logs.length];
        for (int i = 0; i < logs.length; i++) {
            inputs[i] = new PartitionInput(logs[i], i, partition);
            if (logs[i].hasEmitter()) {
                writerClocked(inputs[i]); // known before its first record: nothing early moves the clock by its events
            }
        }
        this.record = inputs[0].record;
    }

    /**
     * From now on, valid events of event time before {@code time} are skipped as if they were not in
     * the log (a replay from a time): no state, no watermark, no side output. Control records and
     * invalid records are handled as always. {@code Long.MIN_VALUE}: nothing is skipped.
     */
    final void skipEventsBefore(final long time) {
        skipBefore = time;
    }

    /** A valid event, not too far ahead, now in {@link #record} (at {@link #lastIndex}); {@code time} is its event time. */
    abstract void onEvent(long time);

    /** A log was idle; its event-time clock stands at {@code time}. */
    abstract void onHeartbeat(long time);

    /** Every log's stream ended: everything still due is due now. */
    abstract void onEndOfStream();

    /** Called after each poll, records read or not (processing-time work). */
    void afterPoll() {
    }

    /** The partition's watermark; Long.MIN_VALUE before its first event. */
    abstract long watermark();

    abstract long lateEvents();

    /** Writes the subclass's state (after the positions, which this class writes). */
    abstract void writeState(DataOutput data) throws IOException;

    /** Replaces the subclass's state with what {@link #writeState} wrote. */
    abstract void readState(DataInput data) throws IOException;

    /** Reads and handles up to {@code max} records; returns how many (0 when nothing new is there). */
    final int poll(final int max) {
        final int handled = inputs.length == 1 ? pollOne(inputs[0], max) : pollMerged(max);
        if (handled > 0) {
            wallClock.handled(watermark());
        }
        afterPoll();
        return handled;
    }

    /** Where the wall clock puts this partition's event-time clock now, for an idle heartbeat ({@link WallClockRules#clockNow}). */
    final long clockByWallClock(final long allowedDisorderMs, final long toleranceMs, final long nowMs) {
        return wallClock.clockNow(allowedDisorderMs, toleranceMs, nowMs);
    }

    /** One log: every record in log order (a held one first). */
    private int pollOne(final PartitionInput in, final int max) {
        final LogReader reader = in.reader();
        int read = 0;
        while (read < max) {
            final int length = in.headLength >= 0 ? in.headLength : reader.next();
            if (length < 0) {
                break;
            }
            in.headLength = -1;
            lastIndex = reader.lastIndex();
            if (!handle(in, length, false)) {
                in.headLength = length; // held where it is until the log decides it
                lastIndex = in.lastIndex;
                break;
            }
            in.lastIndex = lastIndex;
            read++;
        }
        if (read > 0) {
            in.lastRecordNanos = System.nanoTime();
        }
        return read;
    }

    /**
     * Several logs: the earliest next record first, while every log that has not ended has one.
     * Records a log holds after its end of stream take no part in the merge (nothing waits for
     * them): they are handled as they come, as the one-log path handles them — late once every log
     * ended, since the watermark then stands at the end of time — never skipped.
     */
    private int pollMerged(final int max) {
        final long now = System.nanoTime();
        int handled = 0;
        for (final PartitionInput in : inputs) {
            if (in.ended && handled < max) {
                handled += pollOne(in, max - handled);
            }
        }
        while (handled < max) {
            PartitionInput next = null;
            for (final PartitionInput in : inputs) {
                if (in.ended) {
                    continue;
                }
                if (in.headLength < 0 && !in.readHead(now)) {
                    return handled; // it may yet hold an earlier record: wait
                }
                if (next == null || in.headTime < next.headTime) {
                    next = in;
                }
            }
            if (next == null) {
                return handled; // every log ended
            }
            lastIndex = next.reader.lastIndex();
            if (!handle(next, next.headLength, next.headTime != PartitionInput.REJECT_FIRST)) { // readHead validated it
                lastIndex = next.lastIndex;
                return handled; // held, and first in the merge: the others wait with it
            }
            next.headLength = -1;
            next.lastIndex = lastIndex;
            handled++;
        }
        return handled;
    }

    /**
     * Sorts the record of {@code length} bytes just read from {@code in}: a control record, an
     * event, or rejected with the reason. {@code validEvent}: it was already found to be a valid
     * event. Returns false when the record is held: an event far ahead of the watermark whose log
     * does not yet show whether it is a jump of the stream or one bad clock ({@link LeapCheck}); it
     * is handed in again, and nothing after it is handled before it.
     */
    private boolean handle(final PartitionInput in, final int length, final boolean validEvent) {
        input = in.number;
        record = in.record;
        final DirectBuffer buffer = in.reader.buffer();
        if (length == SchemaLayout.CONTROL_LENGTH && buffer.getByte(1) == SchemaLayout.MARKER) {
            final byte kind = buffer.getByte(0);
            if (kind == SchemaLayout.KIND_END_OF_STREAM) {
                in.ended = true;
                if (ended()) {
                    onEndOfStream();
                }
                return true;
            }
            if (kind == SchemaLayout.KIND_HEARTBEAT) {
                if (!in.writerClocked) { // a log its writers clock moves with them alone
                    onHeartbeat(SchemaLog.controlTime(buffer, 0));
                }
                return true;
            }
            if (kind == SchemaLayout.KIND_WRITER_CLOCK) {
                takeWriterClock(in, buffer);
                return true;
            }
        }
        record.wrap(buffer, 0, length);
        final String rejectedByLog = validEvent ? null : in.reader.rejection();
        final String invalid = validEvent ? null : rejectedByLog != null ? rejectedByLog : record.validate();
        if (invalid != null) {
            reject(length, invalid);
            return true;
        }
        // Emitted and published events name their writer and count in the sequence: a repeat is dropped.
        final byte kind = buffer.getByte(0);
        if (kind == SchemaLayout.KIND_EMITTED && !in.writerClocked) {
            writerClocked(in); // before its event: a job's events do not move the clock, its writers do
        }
        final boolean emitted = kind == SchemaLayout.KIND_EMITTED || kind == SchemaLayout.KIND_PUBLISHED;
        if (emitted && in.isRepeat(record.sequence())) {
            repeats++;
            return true;
        }
        final long time = record.eventTime();
        final long watermark = watermark();
        final boolean skip = time < skipBefore;
        final boolean aheadOfWallClock = !skip && wallClock.isAhead(time);
        LeapCheck.Verdict leap = null;
        if (!skip && !aheadOfWallClock && watermark != Long.MIN_VALUE && time - watermark > maxFutureMs) {
            leap = in.leaps().decide(lastIndex, time, maxFutureMs);
            if (leap == LeapCheck.Verdict.UNDECIDED) {
                return false;
            }
        }
        if (emitted) {
            in.rememberEmitted(record.sequence());
        }
        if (skip) {
            skipped++;
        } else if (aheadOfWallClock) {
            reject(length, "event time " + time + " is " + (time - System.currentTimeMillis()) + " ms ahead of the wall clock, more than"
                    + " max-future-ms " + maxFutureMs + ": a clock error; the watermark was not moved");
        } else if (leap == LeapCheck.Verdict.OUTLIER) {
            reject(length, "event time " + time + " is " + (time - watermark) + " ms ahead of the partition's watermark "
                    + watermark + ", more than max-future-ms " + maxFutureMs + ", and a later event of the partition (at "
                    + in.leaps().wentBackTo() + ") is back behind it: one bad clock; the watermark was not moved");
        } else {
            onEvent(time); // on time, or the first event of a jump of the stream
        }
        return true;
    }

    /** A writer's clock read from {@code in}: the log's clock may move, and with every writer ended, its stream ends. */
    private void takeWriterClock(final PartitionInput in, final DirectBuffer buffer) {
        final int writer = SchemaLog.controlWriter(buffer, 0);
        final int writers = SchemaLog.controlWriters(buffer, 0);
        if (writers < 1 || writers > Emitted.MAX_WRITERS || writer < 0 || writer >= writers) {
            record.wrap(buffer, 0, SchemaLayout.CONTROL_LENGTH);
            reject(SchemaLayout.CONTROL_LENGTH, "a writer clock naming writer " + writer + " of " + writers
                    + ": writers are 0..n-1 of n, 1 <= n <= " + Emitted.MAX_WRITERS);
            return;
        }
        writerClocked(in);
        if (in.ended || !in.takeWriterClock(writer, writers, SchemaLog.controlTime(buffer, 0))) {
            return;
        }
        if (in.writersClock() == Long.MAX_VALUE) {
            in.ended = true; // every writer ended: so did the log's stream
            if (ended()) {
                onEndOfStream();
                return;
            }
        }
        onClockMoved();
    }

    private void writerClocked(final PartitionInput in) {
        in.writerClocked = true;
        anyWriterClocked = true;
    }

    /**
     * The clock of a log that jobs write moved ({@link #clocked}): the watermark may follow. Tasks
     * whose watermark depends on nothing else need not override.
     */
    void onClockMoved() {
    }

    /**
     * Where the watermark may stand when the events' times and the heartbeats put it at
     * {@code byEventTime} (the newest minus the allowed disorder): that, no later than the clock
     * of each log its writers clock ({@link PartitionInput#writersClock}, logs that ended left out)
     * — or those clocks alone when every log still open is such a log.
     */
    final long clocked(final long byEventTime) {
        if (!anyWriterClocked) {
            return byEventTime;
        }
        long writers = Long.MAX_VALUE;
        boolean byEvents = false;
        for (final PartitionInput in : inputs) {
            if (in.ended) {
                continue;
            }
            if (in.writerClocked) {
                writers = Math.min(writers, in.writersClock());
            } else {
                byEvents = true;
            }
        }
        return byEvents ? Math.min(byEventTime, writers) : writers;
    }

    /** Whether the record being handled is from a log its writers clock: its time does not move the clock. */
    final boolean fromWriterClockedLog() {
        return anyWriterClocked && inputs[input].writerClocked;
    }

    /**
     * Appends a heartbeat to a log that holds this task back, so that its event-time clock moves and
     * the task goes on ({@link IdleHeartbeats#appendIfIdle}); returns the heartbeat's time, or
     * {@link PartitionTasksP#NO_HEARTBEAT}.
     */
    final long heartbeatIfIdle(final long nowNanos, final long idleNanos, final long allowedDisorderMs, final long othersNewest,
                               final long wallClockMs) {
        return IdleHeartbeats.appendIfIdle(inputs, partition, watermark(), maxFutureMs, nowNanos, idleNanos, allowedDisorderMs,
                othersNewest, wallClockMs);
    }

    /**
     * Writes the task's whole state in compact binary form into its reusable buffer ({@link TaskSnapshot})
     * and returns its length; read it out with {@link #snapshotBytes}.
     */
    final int writeSnapshot() {
        return snapshot.write(inputs, this);
    }

    /** Fills {@code into} with the bytes from {@code from} on of the state {@link #writeSnapshot} wrote last; returns it. */
    final byte[] snapshotBytes(final int from, final byte[] into) {
        return snapshot.copy(from, into);
    }

    /** Copies {@code length} bytes from {@code from} on of the state {@link #writeSnapshot} wrote last into {@code into} at {@code at}. */
    final void snapshotBytes(final int from, final byte[] into, final int at, final int length) {
        snapshot.copy(from, into, at, length);
    }

    /** Restores what {@link #writeSnapshot()} wrote; reading resumes after the saved positions. */
    final void restore(final byte[] state) {
        snapshot.read(state, inputs, this);
        for (final PartitionInput in : inputs) {
            anyWriterClocked |= in.writerClocked;
        }
        wallClock.restored();
    }

    /** The buffer holding the record being handled. */
    final DirectBuffer buffer() {
        return inputs[input].reader.buffer();
    }

    /**
     * The key of a side-output entry ({@code late.*}, {@code rejected.*}, {@code unmatched.*}) for the
     * record being handled: {@code p<partition>-<index>}, prefixed by {@code <schema>/} in a job
     * reading several schemas (each log has its own indexes).
     */
    final String sideOutputKey() {
        final String key = LateEvent.mapKey(partition, lastIndex);
        return inputs.length == 1 ? key : inputs[input].log.schema().name() + "/" + key;
    }

    /** Counts the record being handled as rejected and writes it to the job's rejected map with the reason. */
    final void reject(final int length, final String reason) {
        rejected++;
        final DirectBuffer buffer = buffer();
        final StringBuilder head = new StringBuilder();
        for (int i = 0; i < Math.min(16, Math.min(length, buffer.capacity())); i++) {
            head.append(String.format("%02x", buffer.getByte(i)));
        }
        out.put(rejectedMap, sideOutputKey(), new RejectedRecord(partition, lastIndex, length,
                inputs.length == 1 ? reason : inputs[input].log.schema().name() + ": " + reason, head.toString()));
    }

    /** Whether the end of stream was read in every log. */
    final boolean ended() {
        for (final PartitionInput in : inputs) {
            if (!in.ended) {
                return false;
            }
        }
        return true;
    }

    final int partition() {
        return partition;
    }

    /** Tells {@code positions} that this task reads its partition of each of its logs. */
    final void registerPositions(final LogPositions.Recorder positions) {
        for (final PartitionInput in : inputs) {
            positions.register(in.log, partition);
        }
    }

    /** Hands {@code positions} the position a snapshot taken now records: the last record handled in each log. */
    final void capturePositions(final LogPositions.Recorder positions) {
        for (final PartitionInput in : inputs) {
            positions.capture(in.log, partition, in.lastIndex);
        }
    }

    final long events() {
        return events;
    }

    /** Records in this partition's logs not read yet (see {@link EventLog#recordsAfter}): from queue indexes. */
    final long recordsBehind() {
        long behind = 0;
        for (final PartitionInput in : inputs) {
            behind += in.log.recordsAfter(partition, in.lastIndex);
        }
        return behind;
    }

    final long rejected() {
        return rejected;
    }

    final long results() {
        return results;
    }

    final long repeats() {
        return repeats;
    }

    void close() {
        for (final PartitionInput in : inputs) {
            in.closeReader();
        }
    }
}
