package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.jobs.ingest.LogReader;
import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.ingest.PartitionReader;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.DirectBuffer;

/**
 * Decides whether an event far ahead of its partition's watermark (more than max-future-ms) is one
 * bad clock or the whole stream moving on — a weekend in a trading history, a device off for two
 * days — by reading the records that follow it in the same partition of the log, without taking
 * them:
 * <ul>
 * <li>a following event (or heartbeat) more than max-future-ms behind the leap, back near the old
 *     time: the leap was a clock error ({@link Verdict#OUTLIER});</li>
 * <li>{@value #CONFIRMATIONS} following events none of which goes back, or the end of the stream
 *     before any goes back: the stream jumped and the watermark follows ({@link Verdict#JUMP});</li>
 * <li>otherwise the log does not hold enough yet: {@link Verdict#UNDECIDED}, asked again later.</li>
 * </ul>
 * The verdict depends only on what the log holds after the leap, so a task restored from a snapshot
 * taken before the leap was handled decides the same again. Invalid records are passed over.
 * Not thread-safe; one per log a task reads, used only when a leap comes.
 */
final class LeapCheck {
    /** Following events that must agree with a leap before the watermark follows it. */
    static final int CONFIRMATIONS = 32;

    enum Verdict { OUTLIER, JUMP, UNDECIDED }

    private final EventLog log;
    private final int partition;
    private final SchemaRecord record;
    private LogReader ahead;
    /** The log index of the leap being decided; meaningful while {@link #ahead} is open. */
    private long leapIndex;
    private int confirmations;
    /** The event time of the record that went back, for the rejection's reason. */
    private long wentBackTo;

    LeapCheck(final EventLog log, final int partition) {
        this.log = log;
        this.partition = partition;
        this.record = new SchemaRecord(log.schema().layout());
    }

    /**
     * The verdict on the event at {@code index} of event time {@code time}, more than
     * {@code maxFutureMs} ahead of the watermark; reads on from where the last call for the same
     * leap stopped.
     */
    Verdict decide(final long index, final long time, final long maxFutureMs) {
        if (ahead == null || leapIndex != index) {
            reset();
            ahead = log.reader(partition, index);
            leapIndex = index;
        }
        final long backBefore = time - maxFutureMs;
        int length;
        while ((length = ahead.next()) >= 0) {
            final long followingTime = timeOf(record, ahead.buffer(), length);
            if (followingTime == Long.MAX_VALUE) {
                return decided(Verdict.JUMP); // the end of the stream: nothing went back
            }
            if (followingTime == Long.MIN_VALUE) {
                continue; // not a valid event
            }
            if (followingTime < backBefore) {
                wentBackTo = followingTime;
                return decided(Verdict.OUTLIER);
            }
            if (++confirmations >= CONFIRMATIONS) {
                return decided(Verdict.JUMP);
            }
        }
        return Verdict.UNDECIDED;
    }

    /** After an {@link Verdict#OUTLIER}: the event time of the following record that went back. */
    long wentBackTo() {
        return wentBackTo;
    }

    /** Forgets the leap being decided (after a verdict, a restore, or when the task closes). */
    void reset() {
        if (ahead != null) {
            ahead.close();
            ahead = null;
        }
        confirmations = 0;
    }

    private Verdict decided(final Verdict verdict) {
        reset();
        return verdict;
    }

    /**
     * A record's time: an event's or a heartbeat's; MAX_VALUE for the end of stream, MIN_VALUE for
     * anything else (a writer's clock, a record that is not a valid event). {@code record} is wrapped over the buffer.
     */
    static long timeOf(final SchemaRecord record, final DirectBuffer buffer, final int length) {
        if (length == SchemaLayout.CONTROL_LENGTH && buffer.getByte(1) == SchemaLayout.MARKER) {
            final byte kind = buffer.getByte(0);
            if (kind == SchemaLayout.KIND_END_OF_STREAM) {
                return Long.MAX_VALUE;
            }
            if (kind == SchemaLayout.KIND_HEARTBEAT) {
                return SchemaLog.controlTime(buffer, 0);
            }
            if (kind == SchemaLayout.KIND_WRITER_CLOCK) {
                return Long.MIN_VALUE; // one writer's clock: first in a merge (it never holds one back), no event here
            }
        }
        record.wrap(buffer, 0, length);
        return record.validate() == null ? record.eventTime() : Long.MIN_VALUE;
    }
}
