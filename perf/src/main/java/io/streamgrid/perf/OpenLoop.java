package io.streamgrid.perf;

import org.HdrHistogram.Histogram;

import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * Calls an operation at a fixed rate and records each call's latency from the moment it was
 * <em>scheduled</em>, not from when it started. If one call stalls, the calls queued behind it are
 * charged the waiting time too: there is no coordinated omission, a stall shows up in the
 * percentiles as it would for a client sending at that rate.
 *
 * <p>One call at a time on the calling thread. Two ways to wait for a call's time:
 * {@link Wait#SPIN} parks while more than {@value #SPIN_NANOS} ns remain and spins after, so the
 * schedule holds to a few microseconds but the thread keeps most of a core busy at high rates;
 * {@link Wait#PARK} only parks (Linux wakes a parked thread some 50–100 µs late), leaving the
 * cores to the system under test. Either way the lateness is inside the recorded latency.
 */
public final class OpenLoop {
    private static final long SPIN_NANOS = 60_000;

    /** How to wait for the next call's scheduled time. */
    public enum Wait { SPIN, PARK }

    /** A timed operation; {@code sequence} counts from 0 within one {@link #run}. */
    @FunctionalInterface
    public interface Operation {
        void call(long sequence, long scheduledNanos) throws Exception;
    }

    private OpenLoop() {
    }

    /**
     * Calls {@code operation} {@code ratePerSecond} times a second for {@code duration} and records
     * the latencies, in nanoseconds, into {@code latencies}.
     *
     * @return the number of calls made
     * @throws Exception the first failure of the operation; the run stops there
     */
    public static long run(final double ratePerSecond, final Duration duration, final Operation operation,
                           final Histogram latencies, final Wait wait) throws Exception {
        if (!(ratePerSecond > 0)) {
            throw new IllegalArgumentException("ratePerSecond must be positive, was " + ratePerSecond);
        }
        final double intervalNanos = 1e9 / ratePerSecond;
        final long calls = (long) (duration.toNanos() / intervalNanos);
        final long start = System.nanoTime();
        for (long i = 0; i < calls; i++) {
            final long scheduled = start + (long) (i * intervalNanos);
            if (wait == Wait.SPIN) {
                waitUntil(scheduled);
            } else {
                parkUntil(scheduled);
            }
            operation.call(i, scheduled);
            latencies.recordValue(Math.max(0, System.nanoTime() - scheduled));
        }
        return calls;
    }

    /** Waits until {@link System#nanoTime()} reaches {@code deadline}. */
    public static void waitUntil(final long deadline) {
        long remaining;
        while ((remaining = deadline - System.nanoTime()) > 0) {
            if (remaining > SPIN_NANOS) {
                LockSupport.parkNanos(remaining - SPIN_NANOS);
            } else {
                Thread.onSpinWait();
            }
        }
    }

    /** Parks until {@link System#nanoTime()} reaches {@code deadline}; no spinning. */
    public static void parkUntil(final long deadline) {
        long remaining;
        while ((remaining = deadline - System.nanoTime()) > 0) {
            LockSupport.parkNanos(remaining);
        }
    }

    /** A histogram for latencies in nanoseconds, 3 significant digits, growing as large values come. */
    public static Histogram newHistogram() {
        return new Histogram(3);
    }
}
