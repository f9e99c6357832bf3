package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.ingest.LogReader;
import io.streamgrid.jobs.ingest.PartitionReader;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.DirectBuffer;
import org.agrona.collections.Long2LongHashMap;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.Arrays;

/** One log a {@link PartitionTask} reads, its partition of it: its reader, the position of the last record handled, and (merging) the record read next. */
final class PartitionInput {
    /** Order time of a record to be rejected: handled first, it does not hold the merge back. */
    static final long REJECT_FIRST = Long.MIN_VALUE;

    final EventLog log;
    /** The log partition read (the task's). */
    private final int partition;
    final SchemaRecord record;
    final int number;
    LogReader reader;
    long lastIndex = PartitionReader.START;
    boolean ended;
    /** System.nanoTime() of the last record read (or of creation, restore, heartbeat): for idle detection. */
    long lastRecordNanos = System.nanoTime();
    /** Reads the leaps ahead of the watermark forward; created at the first. */
    private LeapCheck leaps;
    /** The length of the record read but not handled yet (in the reader's buffer), or -1: merging, or held. */
    int headLength = -1;
    /** Merging: that record's place in the merge order. */
    long headTime;
    /** Per writer of emitted events in this log: the highest count read (see {@link SchemaLayout#KIND_EMITTED}). */
    final Long2LongHashMap emittedCounts = new Long2LongHashMap(0);
    /**
     * Whether a job writes this log (its first emitted event or writer clock said so): then the
     * log's event-time clock is its writers' ({@link #writersClock}), not its events' times.
     */
    boolean writerClocked;
    /** Per writer, the latest clock it announced ({@link SchemaLayout#KIND_WRITER_CLOCK}); empty until the first. */
    private long[] writerClocks = new long[0];
    /** The earliest of {@link #writerClocks}, kept as they move: read for every event of a task reading such a log. */
    private long writersClock = Long.MIN_VALUE;

    PartitionInput(final EventLog log, final int number, final int partition) {
        this.log = log;
        this.partition = partition;
        this.record = new SchemaRecord(log.schema().layout());
        this.number = number;
    }

    LogReader reader() {
        if (reader == null) {
            reader = log.reader(partition, lastIndex);
        }
        return reader;
    }

    /** Reads the next record into the head; false when there is none yet. */
    boolean readHead(final long nowNanos) {
        final int length = reader().next();
        if (length < 0) {
            return false;
        }
        lastRecordNanos = nowNanos;
        headLength = length;
        headTime = orderTime(reader.buffer(), length);
        return true;
    }

    /** Where a record goes in the merge: its event time, a heartbeat's time, the end of stream last, a bad record first. */
    private long orderTime(final DirectBuffer buffer, final int length) {
        final long time = LeapCheck.timeOf(record, buffer, length);
        return time == Long.MIN_VALUE ? REJECT_FIRST : time;
    }

    /** Whether an emitted event of this {@code sequence} was handled before. */
    boolean isRepeat(final long sequence) {
        return Emitted.count(sequence) <= emittedCounts.get(Emitted.writer(sequence));
    }

    /** Remembers that the emitted event of this {@code sequence} was handled. */
    void rememberEmitted(final long sequence) {
        emittedCounts.put(Emitted.writer(sequence), Emitted.count(sequence));
    }

    /**
     * Takes writer {@code writer}'s clock {@code time} (one of {@code writers}); a clock never goes
     * back (a restored writer announces again what it had). Returns whether {@link #writersClock} moved.
     */
    boolean takeWriterClock(final int writer, final int writers, final long time) {
        writerClocked = true;
        if (writers > writerClocks.length) {
            final int known = writerClocks.length;
            writerClocks = Arrays.copyOf(writerClocks, writers);
            Arrays.fill(writerClocks, known, writers, Long.MIN_VALUE);
        }
        if (time <= writerClocks[writer]) {
            return false;
        }
        writerClocks[writer] = time;
        final long before = writersClock;
        writersClock = earliest(writerClocks);
        return writersClock != before;
    }

    /**
     * The earliest clock of the log's writers: no event still to come from them is earlier.
     * {@code Long.MIN_VALUE} until every writer announced one; {@code Long.MAX_VALUE} once all ended.
     */
    long writersClock() {
        return writersClock;
    }

    private static long earliest(final long[] clocks) {
        if (clocks.length == 0) {
            return Long.MIN_VALUE;
        }
        long earliest = Long.MAX_VALUE;
        for (final long clock : clocks) {
            earliest = Math.min(earliest, clock);
        }
        return earliest;
    }

    LeapCheck leaps() {
        if (leaps == null) {
            leaps = new LeapCheck(log, partition);
        }
        return leaps;
    }

    /** Writes what a snapshot keeps of this input: its position, whether it ended, its writers' clocks, each writer's count of events. */
    void writeTo(final DataOutput data) throws IOException {
        data.writeLong(lastIndex);
        data.writeBoolean(ended);
        data.writeBoolean(writerClocked);
        data.writeInt(writerClocks.length);
        for (final long clock : writerClocks) {
            data.writeLong(clock);
        }
        data.writeInt(emittedCounts.size());
        final Long2LongHashMap.EntryIterator entries = emittedCounts.entrySet().iterator();
        while (entries.hasNext()) {
            entries.next();
            data.writeInt((int) entries.getLongKey());
            data.writeLong(entries.getLongValue());
        }
    }

    /** Restores what {@link #writeTo} wrote: reading resumes after the saved position. */
    void readFrom(final DataInput data) throws IOException {
        resumeAfter(data.readLong());
        ended = data.readBoolean();
        writerClocked |= data.readBoolean(); // a log claimed by its emitter since the snapshot stays clocked by it
        writerClocks = new long[data.readInt()];
        for (int i = 0; i < writerClocks.length; i++) {
            writerClocks[i] = data.readLong();
        }
        writersClock = earliest(writerClocks);
        emittedCounts.clear();
        final int writers = data.readInt();
        for (int i = 0; i < writers; i++) {
            emittedCounts.put(data.readInt(), data.readLong());
        }
    }

    /** The next read is after {@code index}, with a fresh reader; the idle clock restarts. */
    private void resumeAfter(final long index) {
        lastIndex = index;
        headLength = -1;
        closeReader();
        lastRecordNanos = System.nanoTime();
    }

    void closeReader() {
        if (reader != null) {
            reader.close();
            reader = null;
        }
        if (leaps != null) {
            leaps.reset();
        }
    }
}
