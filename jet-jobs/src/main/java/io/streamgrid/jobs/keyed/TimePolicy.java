package io.streamgrid.jobs.keyed;

import java.io.Serializable;

/**
 * How event time advances in a keyed job, and what is late. The same rules as the windows'
 * ({@link io.streamgrid.jobs.window.WindowPolicy}):
 * <ul>
 * <li>A partition's watermark is the highest event time read from it minus {@code allowedDisorderMs};
 *     an event-time timer fires when the watermark reaches its time.</li>
 * <li>An event behind the watermark by at most {@code allowedLatenessMs} is still processed, with
 *     {@link KeyedContext#isLate()} true, so the function can correct what it already emitted.</li>
 * <li>An event further behind goes to the job's late side output ({@code late.<job>}) with the
 *     reason; it does not reach the function. Nothing is dropped silently.</li>
 * <li>An event more than {@code maxFutureMs} ahead of the watermark is one bad clock — rejected
 *     ({@code rejected.<job>}) without moving the watermark — when a later event of the partition
 *     goes back near the old time, and a jump of the whole stream, which the watermark follows,
 *     when the next 32 agree with it; it waits in the log until they decide. An event more than
 *     {@code maxFutureMs} ahead of the wall clock is rejected, a partition's first included.</li>
 * <li>A partition without records for {@code idleTimeoutMs} of wall-clock time gets a heartbeat in
 *     its log that moves its watermark to its other partitions' time, or — when its events follow
 *     the wall clock — the wall clock; a paused history waits. 0 turns this off.</li>
 * </ul>
 */
public record TimePolicy(long allowedDisorderMs, long allowedLatenessMs, long maxFutureMs, long idleTimeoutMs)
        implements Serializable {
    /** One day. */
    public static final long DEFAULT_MAX_FUTURE_MS = 86_400_000;

    public TimePolicy {
        if (allowedDisorderMs < 0) {
            throw new IllegalArgumentException("allowedDisorderMs must be >= 0, was " + allowedDisorderMs);
        }
        if (allowedLatenessMs < 0) {
            throw new IllegalArgumentException("allowedLatenessMs must be >= 0, was " + allowedLatenessMs);
        }
        if (maxFutureMs < 1) {
            throw new IllegalArgumentException("maxFutureMs must be at least 1, was " + maxFutureMs);
        }
        if (idleTimeoutMs < 0) {
            throw new IllegalArgumentException("idleTimeoutMs must be >= 0 (0: off), was " + idleTimeoutMs);
        }
    }

    /** Events at most a day ahead; idle partitions wait. */
    public static TimePolicy of(final long allowedDisorderMs, final long allowedLatenessMs) {
        return new TimePolicy(allowedDisorderMs, allowedLatenessMs, DEFAULT_MAX_FUTURE_MS, 0);
    }

    public TimePolicy withIdleTimeout(final long millis) {
        return new TimePolicy(allowedDisorderMs, allowedLatenessMs, maxFutureMs, millis);
    }

    public TimePolicy withMaxFuture(final long millis) {
        return new TimePolicy(allowedDisorderMs, allowedLatenessMs, millis, idleTimeoutMs);
    }
}
