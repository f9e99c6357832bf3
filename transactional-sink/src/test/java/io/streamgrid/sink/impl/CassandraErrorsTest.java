package io.streamgrid.sink.impl;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverExecutionException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.servererrors.DefaultWriteType;
import com.datastax.oss.driver.api.core.servererrors.FunctionFailureException;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.ServerError;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteFailureException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import com.datastax.oss.driver.internal.core.adminrequest.UnexpectedResponseException;
import com.datastax.oss.protocol.internal.ProtocolConstants;
import com.datastax.oss.protocol.internal.response.Error;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.CompletionException;

import static org.assertj.core.api.Assertions.assertThat;

class CassandraErrorsTest {
    @Test
    void when_serverIsSlowOrUnreachable_then_transient() {
        assertThat(CassandraErrors.isTransient(new DriverTimeoutException("slow"))).isTrue();
        assertThat(CassandraErrors.isTransient(new UnavailableException(null, ConsistencyLevel.ONE, 1, 0))).isTrue();
        assertThat(CassandraErrors.isTransient(new OverloadedException(null))).isTrue();
        assertThat(CassandraErrors.isTransient(new WriteTimeoutException(null, ConsistencyLevel.ONE, 0, 1, DefaultWriteType.SIMPLE))).isTrue();
        assertThat(CassandraErrors.isTransient(new CompletionException(new DriverTimeoutException("wrapped")))).isTrue();
    }

    @Test
    void when_errorIsDeterministic_then_permanent() {
        assertThat(CassandraErrors.isTransient(new InvalidQueryException(null, "unconfigured table t"))).isFalse();
        assertThat(CassandraErrors.isTransient(new FunctionFailureException(null, "a function threw"))).isFalse();
        assertThat(CassandraErrors.isTransient(new WriteFailureException(null, ConsistencyLevel.ONE, 0, 1,
                DefaultWriteType.SIMPLE, 1, Map.of()))).isFalse();
        assertThat(CassandraErrors.isTransient(new ServerError(null, "bug"))).isFalse();
        assertThat(CassandraErrors.isTransient(new IllegalArgumentException("cannot bind"))).isFalse();
    }

    @Test
    void when_noNodeAnswers_then_transient() {
        assertThat(CassandraErrors.isTransient(new NoNodeAvailableException())).isTrue();
        assertThat(CassandraErrors.isTransient(AllNodesFailedException.fromErrors(Map.of()))).isTrue();
    }

    /**
     * Seen in CassandraExactlyOnceTest: a sink opening its table while Cassandra stopped got this
     * from the connection's metadata query, took it for permanent and suspended the job.
     */
    /**
     * Seen in CassandraExactlyOnceTest's Cassandra-stop variant: a commit that met the server's
     * connection being reset as it stopped (AllNodesFailedException holding "Connection reset by
     * peer") was taken for permanent and suspended the job.
     */
    @Test
    void when_theConnectionIsResetOrClosed_then_transient() {
        assertThat(CassandraErrors.isTransient(new java.io.IOException("Connection reset by peer"))).isTrue();
        assertThat(CassandraErrors.isTransient(new CompletionException(new java.nio.channels.ClosedChannelException()))).isTrue();
    }

    @Test
    void when_connectingMeetsAServerShuttingDown_then_transient() {
        final UnexpectedResponseException shuttingDown = new UnexpectedResponseException("SELECT * FROM system.peers_v2",
                new Error(ProtocolConstants.ErrorCode.SERVER_ERROR, "Server is shutting down"));
        assertThat(CassandraErrors.isTransient(new DriverExecutionException(shuttingDown))).isTrue();
    }
}
