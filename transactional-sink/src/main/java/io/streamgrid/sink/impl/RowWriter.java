package io.streamgrid.sink.impl;

import com.hazelcast.jet.JetException;
import com.hazelcast.jet.core.metrics.Metric;
import com.hazelcast.logging.ILogger;
import io.streamgrid.sink.TableSpec;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The sink's writes to its table: rows grouped by partition key, at most {@code maxInFlight}
 * requests outstanding, transient errors retried with backoff (up to 5 s) for as long as it takes —
 * the job stalls while Cassandra is down — and a permanent one reported once every write has ended.
 * The table is opened on first use, not when the processor starts: an execution may start while
 * Cassandra is down or restarting, and a failed start would suspend the job.
 */
final class RowWriter implements AutoCloseable {
    private static final long MAX_BACKOFF_MS = 5_000;

    private final TableSpec spec;
    private final Supplier<RowStore> opener;
    private final int maxInFlight;
    private final Semaphore inFlight;
    private final Metric writesInFlight;
    private final ILogger logger;
    private RowStore store;

    RowWriter(final TableSpec spec, final Supplier<RowStore> opener, final int maxInFlight, final Metric writesInFlight,
              final ILogger logger) {
        this.spec = spec;
        this.opener = opener;
        this.maxInFlight = maxInFlight;
        this.inFlight = new Semaphore(maxInFlight);
        this.writesInFlight = writesInFlight;
        this.logger = logger;
    }

    @Override
    public void close() {
        if (store != null) {
            store.close();
        }
    }

    /**
     * Writes rows (grouped by partition key) and returns when all are acknowledged; transient errors
     * are retried until they pass. {@code timestamp < 0}: server timestamps.
     *
     * @throws PermanentWriteFailure after every write has finished, when any failed permanently
     */
    void write(final EpochWrites rows, final long timestamp) {
        store(); // opened before the first write, so that writeWithRetry finds it
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        rows.forEachPartition(group -> {
            acquire(1);
            writeWithRetry(group, timestamp, 0).whenComplete((result, error) -> {
                if (error != null) {
                    failure.compareAndSet(null, CassandraErrors.unwrap(error));
                }
                inFlight.release();
            });
        });
        writesInFlight.set(maxInFlight - inFlight.availablePermits());
        // Every write has finished (failed ones after their retries) once every permit is back.
        acquire(maxInFlight);
        inFlight.release(maxInFlight);
        if (failure.get() != null) {
            throw new PermanentWriteFailure(failure.get());
        }
    }

    private CompletionStage<?> writeWithRetry(final List<RowWrite> group, final long timestamp, final int attempt) {
        final CompletionStage<?> attemptStage;
        try {
            attemptStage = store.write(group, timestamp);
        } catch (final RuntimeException e) {
            return CompletableFuture.failedFuture(e); // e.g. a value the driver cannot bind
        }
        return attemptStage.handle((result, error) -> {
            if (error == null) {
                return CompletableFuture.completedFuture(result);
            }
            final Throwable cause = CassandraErrors.unwrap(error);
            if (!CassandraErrors.isTransient(cause)) {
                return CompletableFuture.failedFuture(cause);
            }
            final long backoff = backoffMillis(attempt);
            if (attempt % 10 == 9) {
                logger.warning("writes to " + spec.qualifiedName() + " keep failing (" + cause.getMessage()
                        + "); retrying every " + backoff + " ms, the job stalls until Cassandra answers");
            }
            return CompletableFuture.runAsync(() -> { }, CompletableFuture.delayedExecutor(backoff, TimeUnit.MILLISECONDS))
                    .thenCompose(ignored -> writeWithRetry(group, timestamp, attempt + 1));
        }).thenCompose(stage -> stage);
    }

    /**
     * The table, opened on first use and not in {@code init}: an execution may start while
     * Cassandra is down or restarting, and a failed start would suspend the job. Transient errors
     * are retried with the writes' backoff for as long as it takes (the job stalls); a permanent
     * one (a missing table, say) is a {@link PermanentWriteFailure}.
     */
    RowStore store() {
        for (int attempt = 0; store == null; attempt++) {
            try {
                store = opener.get();
            } catch (final RuntimeException e) {
                final Throwable cause = CassandraErrors.unwrap(e);
                if (!CassandraErrors.isTransient(cause)) {
                    throw new PermanentWriteFailure(cause);
                }
                final long backoff = backoffMillis(attempt);
                if (attempt % 10 == 9) {
                    logger.warning("cannot open " + spec.qualifiedName() + " (" + cause.getMessage() + "); retrying every "
                            + backoff + " ms, the job stalls until Cassandra answers");
                }
                sleep(backoff);
            }
        }
        return store;
    }

    /** The table's statements, for messages. */
    String describe() {
        return store == null ? "table " + spec.qualifiedName() + " not opened" : store.describe();
    }

    private static long backoffMillis(final int attempt) {
        return Math.min(MAX_BACKOFF_MS, 100L << Math.min(attempt, 6));
    }

    private void sleep(final long millis) {
        try {
            Thread.sleep(millis);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JetException("interrupted while opening " + spec.qualifiedName(), e);
        }
    }

    private void acquire(final int permits) {
        try {
            inFlight.acquire(permits);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new JetException("interrupted while waiting to write to " + spec.qualifiedName(), e);
        }
    }

    /** A write failed with an error that retrying cannot fix; the cause is the driver's error. */
    static final class PermanentWriteFailure extends RuntimeException {
        PermanentWriteFailure(final Throwable cause) {
            super(cause.getClass().getSimpleName() + ": " + cause.getMessage(), cause, false, false);
        }
    }
}
