package io.streamgrid.node.impl;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Row;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/** Runs a batch of Cassandra statements asynchronously, a bounded number in flight: how {@link StateTable} writes and loads. */
final class AsyncStatements {
    /** Requests in flight per batch: enough to keep a node busy, few enough not to overload it. */
    private static final int IN_FLIGHT = 64;

    private AsyncStatements() {
    }

    static void runAll(final CqlSession session, final List<BoundStatement> statements) {
        runAll(session, statements, (statement, row) -> { });
    }

    /**
     * Runs {@code statements} with at most {@link #IN_FLIGHT} at a time, handing every row of every
     * page to {@code onRow} (from the driver's threads); throws the first failure after all ended.
     */
    static void runAll(final CqlSession session, final List<BoundStatement> statements, final BiConsumer<BoundStatement, Row> onRow) {
        final Semaphore permits = new Semaphore(IN_FLIGHT);
        final List<CompletableFuture<Void>> all = new ArrayList<>(statements.size());
        try {
            for (final BoundStatement statement : statements) {
                permits.acquire();
                all.add(session.executeAsync(statement).thenCompose(page -> drain(page, row -> onRow.accept(statement, row)))
                        .whenComplete((ignored, failure) -> permits.release()).toCompletableFuture());
            }
            CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for Cassandra", e);
        } catch (final CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        }
    }

    private static CompletionStage<Void> drain(final AsyncResultSet page, final Consumer<Row> onRow) {
        for (final Row row : page.currentPage()) {
            onRow.accept(row);
        }
        return page.hasMorePages() ? page.fetchNextPage().thenCompose(next -> drain(next, onRow)) : CompletableFuture.completedFuture(null);
    }
}
