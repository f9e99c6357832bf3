package io.streamgrid.jobs.usecase;

import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.pipeline.WindowResult;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.jobs.window.WindowPolicy;

/**
 * {@code user-clicks-hourly}: per user, clicks (and views and purchases) over the last hour, sliding
 * by one minute, into {@code state.user-clicks-hourly}.
 */
public final class UserClicksHourlyJob {
    public static final String NAME = "user-clicks-hourly";

    private UserClicksHourlyJob() {
    }

    /** The job over {@code policy}'s windows, which must slide (the YAML's {@code jobs.user-clicks-hourly}). */
    public static WindowedJob<ClickCounts> of(final WindowPolicy policy) {
        if (!(policy.window() instanceof WindowDefinition.Sliding)) {
            throw new IllegalArgumentException("user-clicks-hourly needs sliding windows, got " + policy.window());
        }
        return WindowedJob.builder(NAME, EventType.CLICK.schema()).policy(policy)
                .aggregate(new ClickCounts.Aggregation())
                .results(r -> new UserClicks(r.key(), r.start(), r.end(), r.value().clicks, r.value().views, r.value().purchases,
                        r.updateSequence(), r.late()));
    }

    /** The state-map key of a user's window. */
    public static String windowKey(final long userId, final long windowStart) {
        return WindowResult.stateKey(userId, windowStart);
    }
}
