package io.streamgrid.jobs.window;

import io.streamgrid.jobs.keyed.TimePolicy;

import java.util.Objects;

/**
 * How windows close and how late data is treated.
 *
 * <ul>
 * <li>The watermark of a source partition is the highest event timestamp read from it so far minus
 *     {@code allowedDisorderMs}. A window {@code [start, end)} is <em>emitted</em> (its on-time
 *     result) when the watermark reaches {@code end}.</li>
 * <li>An event whose window was already emitted but for which {@code end + allowedLatenessMs} is
 *     still above the watermark updates the window, and a corrected result is emitted at once,
 *     with a higher update sequence.</li>
 * <li>An event later than that goes to the late side output with the reason. Nothing is dropped
 *     silently.</li>
 * <li>An event more than {@code maxFutureMs} ahead of its partition's watermark is held until the
 *     events after it in the log decide: one going back near the old time makes it one bad clock,
 *     rejected (to the job's rejected side output, with the reason) without moving the watermark,
 *     so no later event becomes late; 32 agreeing with it make it a jump of the whole stream, which
 *     the watermark follows. An event more than {@code maxFutureMs} ahead of the wall clock is
 *     rejected, a partition's first event included.</li>
 * <li>A partition without records for {@code idleTimeoutMs} of wall-clock time has its watermark
 *     moved on (see {@code SchemaLog.appendHeartbeat}) to its other partitions' time, or — when its
 *     events follow the wall clock — the wall clock, so its last windows close; a paused history
 *     waits for more data or its end of stream. 0 turns this off.</li>
 * </ul>
 *
 * @param window which windows
 * @param time   the time rules every job of StreamGrid follows ({@link TimePolicy}): allowed disorder
 *               and lateness, how far ahead an event may be, when an idle partition moves on
 */
public record WindowPolicy(WindowDefinition window, TimePolicy time) implements java.io.Serializable {
    /** One day: generous for any real disorder, yet finite. */
    public static final long DEFAULT_MAX_FUTURE_MS = TimePolicy.DEFAULT_MAX_FUTURE_MS;

    public WindowPolicy {
        Objects.requireNonNull(window, "window");
        Objects.requireNonNull(time, "time");
    }

    /** Events at most a day ahead of the watermark; idle partitions wait (idle handling off). */
    public WindowPolicy(final WindowDefinition window, final long allowedDisorderMs, final long allowedLatenessMs) {
        this(window, TimePolicy.of(allowedDisorderMs, allowedLatenessMs));
    }

    public WindowPolicy(final WindowDefinition window, final long allowedDisorderMs, final long allowedLatenessMs,
                        final long maxFutureMs, final long idleTimeoutMs) {
        this(window, new TimePolicy(allowedDisorderMs, allowedLatenessMs, maxFutureMs, idleTimeoutMs));
    }

    /** How far behind the newest event an event may be and still be on time. */
    public long allowedDisorderMs() {
        return time.allowedDisorderMs();
    }

    /** How long after emission a window still takes corrections. */
    public long allowedLatenessMs() {
        return time.allowedLatenessMs();
    }

    /** How far ahead of the watermark an event may be, at least 1. */
    public long maxFutureMs() {
        return time.maxFutureMs();
    }

    /** Wall-clock time without records after which an idle partition's watermark moves on; 0: never. */
    public long idleTimeoutMs() {
        return time.idleTimeoutMs();
    }
}
