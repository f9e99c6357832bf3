package io.streamgrid.perf.bench;

import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.pipeline.ResultHandler;
import io.streamgrid.jobs.pipeline.StateWriter;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.usecase.Counter;
import io.streamgrid.jobs.window.WindowAggregation;
import io.streamgrid.jobs.window.WindowPolicy;

import java.util.concurrent.atomic.LongAdder;

/**
 * The windowing benchmark's job on StreamGrid's engine: sliding-window count of REQUEST events per
 * source IP. Its results are added into {@link #TALLY} instead of being written to a map, as the
 * plain-Jet pipeline's sink does: the benchmark compares windowing, not map writes.
 *
 * <p>The tally is a static because the benchmark's member is embedded in the benchmark's own JVM:
 * the job's classes resolve to these very classes there. It would not work on a remote member.
 */
record SlidingCountJob(WindowPolicy policy, long sentinelKey) implements WindowedJob<Counter> {
    private static final long serialVersionUID = 1L;

    /** The sum of every emitted window count of a real key, and the number of results. */
    static final LongAdder TALLY = new LongAdder();
    static final LongAdder RESULTS = new LongAdder();

    @Override
    public String name() {
        return "bench-sliding-count";
    }

    @Override
    public EventType eventType() {
        return EventType.REQUEST;
    }

    @Override
    public WindowAggregation<Counter> aggregation() {
        return new Counter.Counting();
    }

    @Override
    public ResultHandler<Counter> newResultHandler() {
        final long sentinel = sentinelKey;
        return (key, start, end, value, updateSequence, afterWatermark, out) -> tally(key, value, sentinel, out);
    }

    private static void tally(final long key, final Counter value, final long sentinel, final StateWriter unused) {
        if (key != sentinel) {
            TALLY.add(value.value());
            RESULTS.increment();
        }
    }
}
