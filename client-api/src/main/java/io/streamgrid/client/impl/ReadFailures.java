package io.streamgrid.client.impl;

import io.streamgrid.cq.WhereErrors;

import java.util.concurrent.CompletionException;

/**
 * What a failed journal read or map query means for a subscription (its own reads, the shared
 * ones of {@link MapFeed} and the members' pushing reads): worth trying again (a member leaving, a
 * timeout), or not.
 */
public final class ReadFailures {
    private ReadFailures() {
    }

    /** What made a read fail: the cause a {@link CompletionException} wraps, else the error itself. */
    public static Throwable causeOf(final Throwable error) {
        return error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
    }

    /** Whether the same read may succeed in a moment: the member it went to left, was busy or timed out. */
    public static boolean isTransient(final Throwable cause) {
        final String name = cause.getClass().getSimpleName();
        return cause instanceof com.hazelcast.spi.exception.RetryableException
                || cause instanceof com.hazelcast.core.OperationTimeoutException
                || cause instanceof java.io.IOException
                || name.contains("TargetDisconnected") || name.contains("MemberLeft") || name.contains("TargetNotMember");
    }

    /** Whether trying again cannot help: the predicate itself is wrong for the map's values ({@link WhereErrors}). */
    public static boolean isPermanent(final Throwable error) {
        return WhereErrors.find(error) != null;
    }
}
