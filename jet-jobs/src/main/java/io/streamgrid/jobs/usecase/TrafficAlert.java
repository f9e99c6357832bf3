package io.streamgrid.jobs.usecase;

/**
 * A window whose request count exceeded its IP's baseline: the values of {@code state.alerts},
 * keyed {@code "<ip>@<windowStart>"}.
 *
 * @param baselineMean   mean count of the IP's earlier windows (on-time results)
 * @param baselineStdDev their standard deviation
 * @param factor         the configured factor the count exceeded
 */
public record TrafficAlert(String ip, long windowStart, long windowEnd, long count, double baselineMean,
                           double baselineStdDev, double factor) {
}
