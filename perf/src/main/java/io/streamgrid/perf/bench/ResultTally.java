package io.streamgrid.perf.bench;

import org.HdrHistogram.Recorder;

import java.util.concurrent.atomic.LongAdder;

/**
 * Where a windowing benchmark job's results go instead of a map: the sum of all window counts
 * (the oracle checks it) and — while {@link #recording} — each result's
 * latency: the time from its window's end (event time, which live runs keep on the wall clock) to
 * its emission.
 *
 * <p>Static instances, because the benchmark's member runs in the benchmark's own JVM: the jobs'
 * classes resolve to these very classes there. This would not work on a remote member.
 */
final class ResultTally {
    static final ResultTally STREAMGRID = new ResultTally();
    static final ResultTally PLAIN_JET = new ResultTally();

    /** Event time of live runs: {@code wallBaseMillis} at {@code nanoBase}, advancing with nanoTime. */
    private static volatile long wallBaseMillis;
    private static volatile long nanoBase;

    final LongAdder tally = new LongAdder();
    final Recorder latency = new Recorder(3);
    volatile boolean recording;

    ResultTally() {
    }

    static void startClock() {
        nanoBase = System.nanoTime();
        wallBaseMillis = System.currentTimeMillis();
    }

    /** The event time (ms) of a moment given by {@link System#nanoTime()}. */
    static long eventTimeMillis(final long nanos) {
        return wallBaseMillis + (nanos - nanoBase) / 1_000_000;
    }

    void reset() {
        tally.reset();
        recording = false;
        latency.reset();
    }

    void onResult(final long windowEnd, final long count) {
        tally.add(count);
        if (recording) {
            final long nowEventNanos = wallBaseMillis * 1_000_000 + (System.nanoTime() - nanoBase);
            latency.recordValue(Math.max(0, nowEventNanos - windowEnd * 1_000_000));
        }
    }
}
