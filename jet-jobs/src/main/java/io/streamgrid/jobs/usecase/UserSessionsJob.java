package io.streamgrid.jobs.usecase;

import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.pipeline.WindowResult;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.jobs.window.WindowPolicy;

/**
 * {@code user-sessions}: session windows per user (30 minutes of inactivity close a session) with
 * start, end, event count, distinct items and latest categories, into {@code state.user-sessions}; a
 * session merged into a later one is removed from it.
 */
public final class UserSessionsJob {
    public static final String NAME = "user-sessions";

    private UserSessionsJob() {
    }

    /** The job over {@code policy}'s windows, which must be sessions (the YAML's {@code jobs.user-sessions}). */
    public static WindowedJob<SessionStats> of(final WindowPolicy policy) {
        if (!(policy.window() instanceof WindowDefinition.Session)) {
            throw new IllegalArgumentException("user-sessions needs session windows, got " + policy.window());
        }
        return WindowedJob.builder(NAME, EventType.CLICK.schema()).policy(policy)
                .aggregate(new SessionStats.Aggregation())
                .results(r -> new UserSession(r.key(), r.start(), r.end(), r.value().events, r.value().items.size(),
                        r.value().lastCategories(), r.updateSequence(), r.late()));
    }

    /** The state-map key of a user's session. */
    public static String sessionKey(final long userId, final long start) {
        return WindowResult.stateKey(userId, start);
    }
}
