package io.streamgrid.perf.bench.nexmark;

import io.streamgrid.nexmark.ResultFingerprint;

import java.util.concurrent.atomic.LongAdder;

/**
 * Where an in-JVM engine's query rows go (StreamGrid's and plain Jet's jobs run on the benchmark's
 * embedded member, so their functions and sinks resolve to these very instances): each row's hash
 * folds into an order-insensitive {@link ResultFingerprint}, and the time of the latest row is kept —
 * a run ends at its last row. Flink's rows are folded the same way in its own JVM.
 */
final class ResultRows {
    static final ResultRows STREAMGRID = new ResultRows();
    static final ResultRows PLAIN_JET = new ResultRows();

    private final LongAdder rows = new LongAdder();
    private final LongAdder sumA = new LongAdder();
    private final LongAdder sumB = new LongAdder();
    private volatile long lastRowNanos;

    private ResultRows() {
    }

    void reset() {
        rows.reset();
        sumA.reset();
        sumB.reset();
        lastRowNanos = 0;
    }

    /** Folds in one row (its hash, {@link io.streamgrid.nexmark.NexmarkQuery}'s row methods). */
    void add(final long row) {
        rows.increment();
        sumA.add(ResultFingerprint.a(row));
        sumB.add(ResultFingerprint.b(row));
        lastRowNanos = System.nanoTime();
    }

    ResultFingerprint fingerprint() {
        return new ResultFingerprint(rows.sum(), sumA.sum(), sumB.sum());
    }

    /** {@link System#nanoTime()} of the latest row; 0 before the first. */
    long lastRowNanos() {
        return lastRowNanos;
    }
}
