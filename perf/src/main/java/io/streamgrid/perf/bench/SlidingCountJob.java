package io.streamgrid.perf.bench;

import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.pipeline.ResultHandler;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.window.Aggregations;
import io.streamgrid.jobs.window.Counter;
import io.streamgrid.jobs.window.WindowPolicy;

/**
 * The windowing benchmark's job on StreamGrid's engine: sliding-window count of REQUEST events per
 * source IP. Its results go to {@link ResultTally#STREAMGRID} instead of a map, as the plain-Jet
 * pipeline's go to {@link ResultTally#PLAIN_JET}: the benchmark compares windowing, not map writes.
 */
final class SlidingCountJob {
    private SlidingCountJob() {
    }

    /** The job over {@code policy}'s windows; results of {@code sentinelKey} (the events that close the last windows) are not counted. */
    static WindowedJob<Counter> of(final WindowPolicy policy, final long sentinelKey) {
        return WindowedJob.builder("bench-sliding-count", EventType.REQUEST.schema()).policy(policy)
                .aggregate(Aggregations.count())
                .handledBy(job -> (ResultHandler<Counter>) (key, start, end, value, updateSequence, afterWatermark, out) -> {
                    if (key != sentinelKey) {
                        ResultTally.STREAMGRID.onResult(end, value.value());
                    }
                });
    }
}
