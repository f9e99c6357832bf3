package io.streamgrid.jobs.usecase;

import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.pipeline.ResultHandler;
import io.streamgrid.jobs.pipeline.StateWriter;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.window.WindowAggregation;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.jobs.window.WindowPolicy;

/**
 * {@code user-sessions}: session windows per user (30 minutes of inactivity close a session) with
 * start, end, event count, distinct items and latest categories, into {@code state.user-sessions}.
 */
public record UserSessionsJob(WindowPolicy policy) implements WindowedJob<SessionStats> {
    public static final String NAME = "user-sessions";
    private static final long serialVersionUID = 1L;

    public UserSessionsJob {
        if (!(policy.window() instanceof WindowDefinition.Session)) {
            throw new IllegalArgumentException("user-sessions needs session windows, got " + policy.window());
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
    public WindowAggregation<SessionStats> aggregation() {
        return new SessionStats.Aggregation();
    }

    public static String sessionKey(final long userId, final long start) {
        return WindowKeys.of(userId, start);
    }

    @Override
    public ResultHandler<SessionStats> newResultHandler() {
        final String map = stateMap();
        return new ResultHandler<>() {
            @Override
            public void onWindow(final long user, final long start, final long end, final SessionStats stats,
                                 final int sequence, final boolean afterWatermark, final StateWriter out) {
                out.put(map, sessionKey(user, start), new UserSession(user, start, end, stats.events, stats.items.size(),
                        stats.lastCategories(), sequence, afterWatermark));
            }

            @Override
            public void onRetract(final long user, final long start, final StateWriter out) {
                out.remove(map, sessionKey(user, start));
            }
        };
    }
}
