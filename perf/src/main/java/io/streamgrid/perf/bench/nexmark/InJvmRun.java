package io.streamgrid.perf.bench.nexmark;

import com.hazelcast.jet.JetService;
import com.hazelcast.jet.Job;
import io.streamgrid.nexmark.ResultFingerprint;
import io.streamgrid.perf.bench.ProcessCpu;

import java.util.function.Function;
import java.util.function.LongSupplier;

/**
 * One run of a query by an engine that computes on the benchmark's embedded member (StreamGrid,
 * plain Jet): its jobs are submitted, and the run ends at its last row — the moment a watcher
 * looking every {@link #WATCH_MS} ms saw the rows change last, once the result equals the one expected
 * or has stayed unchanged for the quiet time (then it differs, and whoever reads the run sees so).
 * What {@code submit} started is stopped after, by the action it returned.
 *
 * @param elapsedNanos from submission to the last row seen (0 rows: 0)
 * @param cpuNanos     this process's CPU time (or what the caller counts) from submission until the end was found
 */
record InJvmRun(long elapsedNanos, long cpuNanos, ResultFingerprint result) {
    /**
     * How often the watcher looks: a run's end is known to this much, late (against the engine).
     * The runs last about a second or more, so 10 ms is at most about 1 % of a figure.
     */
    private static final long WATCH_MS = 10;
    /** The longest a run may go on producing rows. */
    private static final long LIMIT_NANOS = 20L * 60 * 1_000_000_000L;

    static InJvmRun run(final JetService jet, final ResultRows rows, final ResultFingerprint expected,
                        final Function<JetService, Runnable> submit, final long quietMs) {
        return run(jet, rows, expected, submit, quietMs, ProcessCpu::own);
    }

    /** As {@link #run(JetService, ResultRows, ResultFingerprint, Function, long)}, its CPU time read from {@code cpuNanos}. */
    static InJvmRun run(final JetService jet, final ResultRows rows, final ResultFingerprint expected,
                        final Function<JetService, Runnable> submit, final long quietMs, final LongSupplier cpuNanos) {
        rows.reset();
        final long cpuAtStart = cpuNanos.getAsLong();
        final long start = System.nanoTime();
        final Runnable stop = submit.apply(jet);
        long seenChanges = 0;
        long lastChange = start; // when the watcher saw the rows change last: the run's end, to WATCH_MS
        final long cpuAtEnd;
        try {
            while (true) {
                final long now = System.nanoTime();
                final long count = rows.changes();
                if (count != seenChanges) {
                    seenChanges = count;
                    lastChange = now;
                }
                if (rows.fingerprint().equals(expected) || (now - lastChange) / 1_000_000 > quietMs) {
                    break;
                }
                if (now - start > LIMIT_NANOS) {
                    throw new IllegalStateException("still producing rows after " + LIMIT_NANOS / 60_000_000_000L + " minutes");
                }
                sleep(WATCH_MS);
            }
            cpuAtEnd = cpuNanos.getAsLong();
        } finally {
            stop.run();
        }
        return new InJvmRun(seenChanges == 0 ? 0 : lastChange - start, cpuAtEnd - cpuAtStart, rows.fingerprint());
    }

    double eventsPerSecond(final long events) {
        return elapsedNanos == 0 ? 0 : events * 1e9 / elapsedNanos;
    }

    double eventsPerCpuSecond(final long events) {
        return events * 1e9 / cpuNanos;
    }

    /** Cancels {@code job} and waits for it to end. */
    static void cancel(final Job job) {
        try {
            job.cancel();
            job.join();
        } catch (final RuntimeException cancelled) {
            // a cancelled job completes exceptionally: that is how it ends here
        }
    }

    /** Sleeps {@code millis}; an interrupt ends the run (the thread keeps its interrupt). */
    static void sleep(final long millis) {
        try {
            Thread.sleep(millis);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted during a NEXMark run", e);
        }
    }
}
