package io.streamgrid.jobs.window;

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
 * </ul>
 *
 * @param window            which windows
 * @param allowedDisorderMs how far behind the newest event an event may be and still be on time
 * @param allowedLatenessMs how long after emission a window still takes corrections
 */
public record WindowPolicy(WindowDefinition window, long allowedDisorderMs, long allowedLatenessMs)
        implements java.io.Serializable {
    public WindowPolicy {
        Objects.requireNonNull(window, "window");
        if (allowedDisorderMs < 0) {
            throw new IllegalArgumentException("allowedDisorderMs must be >= 0, was " + allowedDisorderMs);
        }
        if (allowedLatenessMs < 0) {
            throw new IllegalArgumentException("allowedLatenessMs must be >= 0, was " + allowedLatenessMs);
        }
    }
}
