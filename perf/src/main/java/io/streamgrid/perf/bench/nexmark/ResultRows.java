package io.streamgrid.perf.bench.nexmark;

import io.streamgrid.nexmark.PacedRun;
import io.streamgrid.nexmark.ResultFingerprint;

import java.util.concurrent.atomic.LongAdder;

/**
 * Where an in-JVM engine's query rows go (StreamGrid's and plain Jet's jobs run on the benchmark's
 * embedded member, so their functions and sinks resolve to these very instances): each row's hash
 * folds into an order-insensitive {@link ResultFingerprint}; no clock is read per row (the engines'
 * hot path: the run's watcher notes when the row count last moved), except in a paced run, where
 * each row with a due time has its latency recorded. Flink's rows are folded the same way in its
 * own JVM.
 */
final class ResultRows {
    static final ResultRows STREAMGRID = new ResultRows();
    static final ResultRows PLAIN_JET = new ResultRows();

    private final LongAdder rows = new LongAdder();
    private final LongAdder sumA = new LongAdder();
    private final LongAdder sumB = new LongAdder();
    private final LongAdder changes = new LongAdder();
    /** A paced run's latency record, or {@code null} (a run as fast as it goes: no clock is read). */
    private volatile PacedRun pacing;

    private ResultRows() {
    }

    /** Records the latency of the rows added with a due time from now on, in {@code paced}; {@code null}: no more. */
    void pacedBy(final PacedRun paced) {
        this.pacing = paced;
    }

    void reset() {
        rows.reset();
        sumA.reset();
        sumB.reset();
        changes.reset();
    }

    /** Folds in one row (its hash, {@link io.streamgrid.nexmark.NexmarkQuery}'s row methods). */
    void add(final long row) {
        rows.increment();
        sumA.add(ResultFingerprint.a(row));
        sumB.add(ResultFingerprint.b(row));
        changes.increment();
    }

    /** Folds in one row due at event time {@code dueMs} (NexmarkQuery's due times), whose latency a paced run records. */
    void add(final long row, final long dueMs) {
        add(row);
        final PacedRun paced = pacing;
        if (paced != null) {
            paced.record(dueMs);
        }
    }

    /**
     * Takes out one row folded in before: a query whose rows are running values (plain Jet's Q4)
     * replaces a row by removing the old and adding the new, so the fingerprint holds the rows as
     * they stand.
     */
    void remove(final long row) {
        rows.decrement();
        sumA.add(-ResultFingerprint.a(row));
        sumB.add(-ResultFingerprint.b(row));
        changes.increment();
    }

    /** How many rows were added or removed so far: the sign of progress a run's watcher follows (cheaper than the fingerprint). */
    long changes() {
        return changes.sum();
    }

    ResultFingerprint fingerprint() {
        return new ResultFingerprint(rows.sum(), sumA.sum(), sumB.sum());
    }
}
