package io.streamgrid.jobs.usecase;

/**
 * One user session: the values of {@code state.user-sessions}, keyed {@code "<userId>@<start>"}.
 * A session that merged into an earlier one is removed under its old key.
 *
 * @param end            last event time plus the inactivity gap
 * @param lastCategories categories of the latest events (up to 5), newest first
 */
public record UserSession(long userId, long start, long end, long events, int distinctItems, int[] lastCategories,
                          int updateSequence, boolean corrected) {
}
