package io.streamgrid.sink.impl;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DriverExecutionException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.NodeUnavailableException;
import com.datastax.oss.driver.api.core.RequestThrottlingException;
import com.datastax.oss.driver.api.core.connection.BusyConnectionException;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.connection.ConnectionInitException;
import com.datastax.oss.driver.api.core.connection.HeartbeatException;
import com.datastax.oss.driver.api.core.servererrors.BootstrappingException;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import com.datastax.oss.driver.internal.core.adminrequest.UnexpectedResponseException;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Which write errors are worth retrying. Transient: the server or the path to it is slow, busy,
 * starting or unreachable — the same write succeeds later unchanged. Everything else is permanent
 * (an invalid query, a missing table or column, a value the server refuses, a failing function, a
 * replica's write failure, a server error): retrying the same statement would fail the same way, so
 * the sink stops instead of stalling the job forever.
 */
final class CassandraErrors {
    private static final List<Class<? extends Throwable>> TRANSIENT = List.of(
            DriverTimeoutException.class, NoNodeAvailableException.class, NodeUnavailableException.class,
            RequestThrottlingException.class, BusyConnectionException.class, ClosedConnectionException.class,
            ConnectionInitException.class, HeartbeatException.class, UnavailableException.class,
            OverloadedException.class, BootstrappingException.class, ReadTimeoutException.class,
            WriteTimeoutException.class,
            // An error answer to the driver's own metadata query while connecting ("Server is shutting
            // down"): a node stopping or starting. Seen opening the sink's table as Cassandra stopped.
            UnexpectedResponseException.class,
            // The network path itself: a connection reset or closed as a node stops.
            IOException.class);

    private CassandraErrors() {
    }

    /**
     * True when {@code error} is transient. An {@link AllNodesFailedException} is transient when
     * every node failed transiently (a cluster that is down or restarting), permanent when any
     * node gave a permanent answer.
     */
    static boolean isTransient(final Throwable error) {
        final Throwable cause = unwrap(error);
        if (cause instanceof AllNodesFailedException all) {
            return all.getAllErrors().values().stream().flatMap(List::stream).allMatch(CassandraErrors::isTransient);
        }
        return TRANSIENT.stream().anyMatch(type -> type.isInstance(cause));
    }

    /** The error behind the wrappers that futures (and the driver's synchronous calls) add. */
    static Throwable unwrap(final Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException || cause instanceof DriverExecutionException)
                && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }
}
