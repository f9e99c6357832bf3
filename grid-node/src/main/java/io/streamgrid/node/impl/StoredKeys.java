package io.streamgrid.node.impl;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.hazelcast.internal.serialization.impl.HeapData;

import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Iterator;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.logging.Logger;

/**
 * The stored keys of one persisted map ({@link StateTable#keys}), in serialized form, bucket after
 * bucket, read as they are iterated: a page at a time, the next buckets' first pages asked for
 * ahead, so that listing a large map never holds all its keys. A page that fails to arrive is asked
 * for again (logged, every {@link StatePersistence#RETRY_MS}) while {@code keepTrying} says so: a
 * listing that ended early would load part of the map.
 */
final class StoredKeys implements Iterator<Object> {
    private static final Logger LOG = Logger.getLogger(StoredKeys.class.getName());
    /** Buckets whose first page is asked for before it is needed. */
    private static final int BUCKETS_AHEAD = 8;

    private final CqlSession session;
    private final PreparedStatement selectKeys;
    private final String map;
    private final int buckets;
    private final BooleanSupplier keepTrying;
    private final long started = System.nanoTime();
    /** The next buckets' first pages, asked for ahead: bucket and its answer to come. */
    private final ArrayDeque<Map.Entry<Integer, CompletionStage<AsyncResultSet>>> ahead = new ArrayDeque<>();
    private int nextBucket;
    private AsyncResultSet page;
    private Iterator<Row> rows = Collections.emptyIterator();
    private long listed;
    private boolean reported;

    /** {@code selectKeys}: the keys of a (map, bucket), bound in that order. */
    StoredKeys(final CqlSession session, final PreparedStatement selectKeys, final String map, final int buckets,
               final BooleanSupplier keepTrying) {
        this.session = session;
        this.selectKeys = selectKeys;
        this.map = map;
        this.buckets = buckets;
        this.keepTrying = keepTrying;
    }

    @Override
    public boolean hasNext() {
        while (!rows.hasNext()) {
            if (page != null && page.hasMorePages()) {
                final AsyncResultSet current = page;
                page = awaitRetrying(current.fetchNextPage(), current::fetchNextPage);
            } else {
                while (ahead.size() < BUCKETS_AHEAD && nextBucket < buckets) {
                    ahead.add(Map.entry(nextBucket, firstPage(nextBucket++)));
                }
                if (ahead.isEmpty()) {
                    if (!reported) {
                        reported = true;
                        LOG.info(() -> String.format("state persistence: %s: %d keys listed in %.1f s", map, listed,
                                (System.nanoTime() - started) / 1e9));
                    }
                    return false;
                }
                final Map.Entry<Integer, CompletionStage<AsyncResultSet>> first = ahead.poll();
                page = awaitRetrying(first.getValue(), () -> firstPage(first.getKey()));
            }
            rows = page.currentPage().iterator();
        }
        return true;
    }

    @Override
    public Object next() {
        if (!hasNext()) {
            throw new NoSuchElementException();
        }
        listed++;
        return new HeapData(StateTable.bytes(rows.next().getByteBuffer("key")));
    }

    private CompletionStage<AsyncResultSet> firstPage(final int bucket) {
        return session.executeAsync(selectKeys.bind(map, bucket).setPageSize(StateTable.PAGE_SIZE));
    }

    /** {@code page}, or when it fails the page asked for again, until it arrives or {@code keepTrying} says no. */
    private AsyncResultSet awaitRetrying(final CompletionStage<AsyncResultSet> page, final Supplier<CompletionStage<AsyncResultSet>> again) {
        CompletionStage<AsyncResultSet> attempt = page;
        while (true) {
            try {
                return attempt.toCompletableFuture().join();
            } catch (final CompletionException e) {
                final RuntimeException failure = e.getCause() instanceof RuntimeException cause ? cause : e;
                StatePersistence.pauseBeforeRetry(LOG, map + ": listing the stored keys", failure, keepTrying);
                attempt = again.get();
            }
        }
    }
}
