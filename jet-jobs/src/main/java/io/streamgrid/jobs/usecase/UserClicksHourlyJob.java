package io.streamgrid.jobs.usecase;

import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.pipeline.ResultHandler;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.window.WindowAggregation;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.jobs.window.WindowPolicy;

/**
 * {@code user-clicks-hourly}: per user, clicks (and views and purchases) over the last hour, sliding
 * by one minute, into {@code state.user-clicks-hourly}.
 */
public record UserClicksHourlyJob(WindowPolicy policy) implements WindowedJob<ClickCounts> {
    public static final String NAME = "user-clicks-hourly";
    private static final long serialVersionUID = 1L;

    public UserClicksHourlyJob {
        if (!(policy.window() instanceof WindowDefinition.Sliding)) {
            throw new IllegalArgumentException("user-clicks-hourly needs sliding windows, got " + policy.window());
        }
    }


    @Override
    public String name() {
        return NAME;
    }

    @Override
    public EventSchema schema() {
        return EventType.CLICK.schema();
    }

    @Override
    public WindowAggregation<ClickCounts> aggregation() {
        return new ClickCounts.Aggregation();
    }

    public static String windowKey(final long userId, final long windowStart) {
        return WindowKeys.of(userId, windowStart);
    }

    @Override
    public ResultHandler<ClickCounts> newResultHandler() {
        final String map = stateMap();
        return (user, start, end, counts, sequence, afterWatermark, out) -> out.put(map, windowKey(user, start),
                new UserClicks(user, start, end, counts.clicks, counts.views, counts.purchases, sequence, afterWatermark));
    }
}
