package io.streamgrid.jobs.usecase;

/**
 * A user's click-stream activity over one sliding window: the values of
 * {@code state.user-clicks-hourly}, keyed {@code "<userId>@<windowStart>"}.
 */
public record UserClicks(long userId, long windowStart, long windowEnd, long clicks, long views, long purchases,
                         int updateSequence, boolean corrected) {
}
