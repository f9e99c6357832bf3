package io.streamgrid.jobs.pipeline.impl;

/**
 * When a partition's logs hold its task back — one log silent, or, merging several, one with
 * nothing new while another has a record waiting — a heartbeat record is appended to the silent log,
 * so the partition's event-time clock moves and its windows and timers come due. The heartbeat is in
 * the log, so a replay moves the clock at the same place. Never to a log its writers clock: their
 * clocks move it, and only they know what they will still emit.
 */
final class IdleHeartbeats {
    private IdleHeartbeats() {
    }

    /**
     * Appends a heartbeat to a log that holds this task back, so that its event-time clock moves
     * and the task goes on; the heartbeat is read later like any record. One log: when it had no
     * record for {@code idleNanos} and has had an event (nothing to close otherwise), at
     * {@code othersNewest} (the newest event time of the processor's other partitions) when that is
     * ahead of its own, else at the wall clock when that is. Several logs: a log with nothing new for
     * {@code idleNanos} while another has a record waiting, at the later of the waiting records'
     * times and the wall clock — leaving out records more than max-future-ms ahead of the watermark
     * (which may be one bad clock) unless only such records wait, then at the earliest of them, so
     * that it can be decided. {@code wallClockMs} is Long.MIN_VALUE when the partition's event time
     * does not follow the wall clock (see {@link WallClockRules#clockNow}). Returns the heartbeat's time,
     * or {@link PartitionTasksP#NO_HEARTBEAT}.
     */
    static long appendIfIdle(final PartitionInput[] inputs, final int partition, final long watermark, final long maxFutureMs,
                             final long nowNanos, final long idleNanos, final long allowedDisorderMs, final long othersNewest,
                             final long wallClockMs) {
        if (inputs.length == 1) {
            final PartitionInput in = inputs[0];
            if (nowNanos - in.lastRecordNanos < idleNanos || in.ended || in.writerClocked || watermark == Long.MIN_VALUE) {
                return PartitionTasksP.NO_HEARTBEAT; // active, ended, clocked by its writers, or never had an event (so nothing to close)
            }
            final long time = PartitionTasksP.heartbeatTime(watermark + allowedDisorderMs, othersNewest, wallClockMs);
            if (time != PartitionTasksP.NO_HEARTBEAT) {
                in.log.appendHeartbeat(partition, time);
            }
            in.lastRecordNanos = nowNanos; // not again before it is read, or another idle timeout passed
            return time;
        }
        long waiting = Long.MIN_VALUE;
        long earliestLeap = Long.MAX_VALUE;
        for (final PartitionInput in : inputs) {
            if (!in.ended && in.headLength >= 0) {
                if (watermark != Long.MIN_VALUE && in.headTime - watermark > maxFutureMs) {
                    earliestLeap = Math.min(earliestLeap, in.headTime);
                } else {
                    waiting = Math.max(waiting, in.headTime);
                }
            }
        }
        if (waiting == Long.MIN_VALUE && earliestLeap != Long.MAX_VALUE) {
            waiting = earliestLeap;
        }
        if (waiting == Long.MIN_VALUE) {
            return PartitionTasksP.NO_HEARTBEAT; // nobody is held back
        }
        long appended = PartitionTasksP.NO_HEARTBEAT;
        for (final PartitionInput in : inputs) {
            if (!in.ended && !in.writerClocked && in.headLength < 0 && nowNanos - in.lastRecordNanos >= idleNanos) {
                appended = Math.max(waiting, wallClockMs);
                in.log.appendHeartbeat(partition, appended);
                in.lastRecordNanos = nowNanos;
            }
        }
        return appended;
    }
}
