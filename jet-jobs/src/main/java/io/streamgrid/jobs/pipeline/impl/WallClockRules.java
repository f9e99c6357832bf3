package io.streamgrid.jobs.pipeline.impl;

/**
 * What the wall clock says about one partition's event time: whether an event is too far ahead of
 * it to be real ({@link #isAhead}), and where an idle partition's event-time clock stands now
 * ({@link #clockNow}). The only rules of a {@link PartitionTask} that depend on when they run.
 */
final class WallClockRules {
    private final long maxFutureMs;
    /** The wall clock plus max-future-ms when last read (see {@link #isAhead}). */
    private long horizon = Long.MIN_VALUE;
    /** The wall clock when records were last handled, and the watermark then (for {@link #clockNow}). */
    private long handledAtMs;
    private long watermarkWhenHandled = Long.MIN_VALUE;

    WallClockRules(final long maxFutureMs) {
        this.maxFutureMs = maxFutureMs;
    }

    /**
     * Whether an event time is more than max-future-ms ahead of the wall clock: no real event can
     * be, so it is rejected even as a partition's first event (which has no watermark to compare
     * with). The wall clock is read again only when a time passes the last horizon computed. The one
     * verdict that depends on when it is made: an event rejected so may be taken by a replay run
     * once the real time has come within max-future-ms of it.
     */
    boolean isAhead(final long time) {
        if (time <= horizon) {
            return false;
        }
        final long now = System.currentTimeMillis();
        horizon = now + maxFutureMs < now ? Long.MAX_VALUE : now + maxFutureMs;
        return time > horizon;
    }

    /** Records were handled just now, leaving the partition's watermark at {@code watermark}. */
    void handled(final long watermark) {
        handledAtMs = System.currentTimeMillis();
        watermarkWhenHandled = watermark;
    }

    /** The partition was restored: it follows the wall clock again only once it has handled records. */
    void restored() {
        watermarkWhenHandled = Long.MIN_VALUE;
    }

    /**
     * Where the wall clock puts the partition's event-time clock now, for an idle heartbeat; or
     * Long.MIN_VALUE when its event time does not follow the wall clock. It follows when its records
     * were last handled with its newest event (watermark plus {@code allowedDisorderMs}) at most
     * {@code toleranceMs} behind the wall clock; the clock then is the wall clock less that lag
     * (a stream read a few seconds behind stays that far behind). A historical stream that pauses
     * (two loads minutes apart, a cluster restarted) has not moved on in event time, and a restored
     * partition follows the wall clock again only once it has handled records.
     */
    long clockNow(final long allowedDisorderMs, final long toleranceMs, final long nowMs) {
        if (watermarkWhenHandled == Long.MIN_VALUE) {
            return Long.MIN_VALUE;
        }
        final long lag = Math.max(0, handledAtMs - (watermarkWhenHandled + allowedDisorderMs));
        return lag <= toleranceMs ? nowMs - lag : Long.MIN_VALUE;
    }
}
