package io.streamgrid.nexmark;

import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The clock and the latency record of a paced NEXMark run: event time runs at the wall clock's pace
 * (the generator's rate is the rate the events are released at), so an event of time {@code t} is
 * released to the engine {@code t − baseTime} milliseconds after the run's start, and a result row
 * that was due at event time {@code d} (see {@link NexmarkQuery#dueTimeOf}) has a latency of
 * {@code now − (start + d − baseTime)}.
 *
 * <p>Only rows due within the measured span are recorded: from {@code warmUpMs} of event time after
 * the base (the engine's first seconds: deployment, JIT) to the last event's time (a row due later is
 * one the end of the input flushed, not one time produced). Safe for any number of threads.
 */
public final class PacedRun {
    private final long baseTimeMs;
    private final long firstMeasuredMs;
    private final long lastMeasuredMs;
    private final AtomicLong startNanos = new AtomicLong();
    private final Histogram latencyNanos = new ConcurrentHistogram(3);

    /**
     * @param baseTimeMs the event time of the first event (the generator's base)
     * @param warmUpMs   how much event time at the start is not measured
     * @param lastEventMs the last event's time: rows due after it are not measured
     */
    public PacedRun(final long baseTimeMs, final long warmUpMs, final long lastEventMs) {
        if (warmUpMs < 0 || baseTimeMs + warmUpMs > lastEventMs) {
            throw new IllegalArgumentException("the warm-up of " + warmUpMs + " ms leaves nothing of the run (events up to "
                    + (lastEventMs - baseTimeMs) + " ms) to measure");
        }
        this.baseTimeMs = baseTimeMs;
        this.firstMeasuredMs = baseTimeMs + warmUpMs;
        this.lastMeasuredMs = lastEventMs;
    }

    /** Starts the clock now unless it runs already (the first of several releasing threads starts it). */
    public void start() {
        startNanos.compareAndSet(0, System.nanoTime());
    }

    /** Waits until the event of time {@code eventTimeMs} is due for release. @throws IllegalStateException before {@link #start} */
    public void awaitRelease(final long eventTimeMs) {
        final long due = nanosAt(eventTimeMs);
        long now;
        while ((now = System.nanoTime()) < due) {
            LockSupport.parkNanos(due - now);
        }
    }

    /** Records a result row that was due at event time {@code dueMs}, when it is within the measured span. */
    public void record(final long dueMs) {
        if (dueMs >= firstMeasuredMs && dueMs <= lastMeasuredMs) {
            // A row before its due time (an engine emitting a window's result early) counts as no wait at all.
            latencyNanos.recordValue(Math.max(0, System.nanoTime() - nanosAt(dueMs)));
        }
    }

    /** A copy of the latencies recorded so far, in nanoseconds. */
    public Histogram latencies() {
        return latencyNanos.copy();
    }

    private long nanosAt(final long eventTimeMs) {
        final long start = startNanos.get();
        if (start == 0) {
            throw new IllegalStateException("the paced run has not started");
        }
        return start + (eventTimeMs - baseTimeMs) * 1_000_000;
    }
}
