package io.streamgrid.jobs.usecase;

/**
 * Requests from one source IP in one tumbling window: the values of {@code state.ip-traffic}, keyed
 * {@code "<ip>@<windowStart>"}.
 *
 * @param updateSequence 1 for the on-time result, higher after each correction by late data
 * @param corrected      true when late data produced this value
 */
public record IpWindowCount(String ip, long windowStart, long windowEnd, long count, int updateSequence,
                            boolean corrected) {
}
