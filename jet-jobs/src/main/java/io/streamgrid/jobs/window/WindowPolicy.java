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
 * <li>An event more than {@code maxFutureMs} ahead of its partition's watermark is rejected (to the
 *     job's rejected side output, with the reason) and does not move the watermark: one event with
 *     a clock far ahead cannot make every later event late. The first event of a partition has no
 *     watermark to be measured against and is accepted.</li>
 * <li>A partition without records for {@code idleTimeoutMs} of wall-clock time has its watermark
 *     moved on (see {@code SchemaLog.appendHeartbeat}), so its last windows close; 0 turns this off.</li>
 * </ul>
 *
 * @param window            which windows
 * @param allowedDisorderMs how far behind the newest event an event may be and still be on time
 * @param allowedLatenessMs how long after emission a window still takes corrections
 * @param maxFutureMs       how far ahead of the watermark an event may be, at least 1
 * @param idleTimeoutMs     wall-clock time without records after which an idle partition's
 *                          watermark moves on; 0: never
 */
public record WindowPolicy(WindowDefinition window, long allowedDisorderMs, long allowedLatenessMs, long maxFutureMs,
                           long idleTimeoutMs) implements java.io.Serializable {
    /** One day: generous for any real disorder, yet finite. */
    public static final long DEFAULT_MAX_FUTURE_MS = TimePolicy.DEFAULT_MAX_FUTURE_MS;

    /** Events at most a day ahead of the watermark; idle partitions wait (idle handling off). */
    public WindowPolicy(final WindowDefinition window, final long allowedDisorderMs, final long allowedLatenessMs) {
        this(window, allowedDisorderMs, allowedLatenessMs, DEFAULT_MAX_FUTURE_MS, 0);
    }

    public WindowPolicy {
        Objects.requireNonNull(window, "window");
        new TimePolicy(allowedDisorderMs, allowedLatenessMs, maxFutureMs, idleTimeoutMs); // the same rules, checked once
    }
}
