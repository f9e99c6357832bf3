package io.streamgrid.perf.bench;

import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.pipeline.ResultHandler;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.usecase.Counter;
import io.streamgrid.jobs.window.WindowAggregation;
import io.streamgrid.jobs.window.WindowPolicy;


/**
 * The windowing benchmark's job on StreamGrid's engine: sliding-window count of REQUEST events per
 * source IP. Its results go to {@link ResultTally#STREAMGRID} instead of a map, as the plain-Jet
 * pipeline's go to {@link ResultTally#PLAIN_JET}: the benchmark compares windowing, not map writes.
 */
record SlidingCountJob(WindowPolicy policy, long sentinelKey) implements WindowedJob<Counter> {
    private static final long serialVersionUID = 1L;

    @Override
    public String name() {
        return "bench-sliding-count";
    }

    @Override
    public EventSchema schema() {
        return EventType.REQUEST.schema();
    }

    @Override
    public WindowAggregation<Counter> aggregation() {
        return new Counter.Counting();
    }

    @Override
    public ResultHandler<Counter> newResultHandler() {
        final long sentinel = sentinelKey;
        return (key, start, end, value, updateSequence, afterWatermark, out) -> {
            if (key != sentinel) {
                ResultTally.STREAMGRID.onResult(end, value.value());
            }
        };
    }
}
