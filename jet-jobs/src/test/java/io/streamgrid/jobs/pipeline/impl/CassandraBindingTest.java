package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.jobs.usecase.SessionStats;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.pipeline.CassandraOutput;
import io.streamgrid.jobs.usecase.UserSession;
import io.streamgrid.jobs.usecase.UserSessionsJob;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.jobs.window.WindowPolicy;
import io.streamgrid.sink.CassandraTarget;
import io.streamgrid.sink.CqlType;
import io.streamgrid.sink.SinkOptions;
import io.streamgrid.sink.TableSpec;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A table bound to a job that retracts (session windows) must be told how to delete; otherwise the job is refused. */
class CassandraBindingTest {
    private static final WindowedJob<SessionStats> SESSIONS = UserSessionsJob.of(new WindowPolicy(WindowDefinition.session(1_000), 0, 0));
    private static final TableSpec TABLE = new TableSpec("ks", "sessions", List.of(new TableSpec.Column("user_id", CqlType.BIGINT),
            new TableSpec.Column("start", CqlType.BIGINT), new TableSpec.Column("events", CqlType.BIGINT)),
            List.of("user_id"), List.of("start"));
    private static final CassandraTarget TARGET = new CassandraTarget(List.of("127.0.0.1:9042"), "datacenter1", "ks",
            "{'class': 'SimpleStrategy', 'replication_factor': 1}", "ONE");

    private static Object[] row(final Object value) {
        final UserSession session = (UserSession) value;
        return new Object[] {session.userId(), session.start(), session.events()};
    }

    @Test
    void when_sessionJobBoundWithoutDeleteMapping_then_refusedNamingTheFix() {
        final CassandraOutput output = new CassandraOutput(TARGET, List.of(
                new CassandraOutput.Binding(SESSIONS.stateMap(), TABLE, CassandraBindingTest::row)), SinkOptions.defaults());

        assertThatThrownBy(() -> WindowedDag.of(SESSIONS, Path.of("log").toString(), 1, output))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("job user-sessions retracts sessions merged away from state.user-sessions")
                .hasMessageContaining("key-to-primary-key function");
    }

    @Test
    void when_sessionJobBoundWithDeleteMapping_then_dagHasTheSink() {
        final CassandraOutput output = new CassandraOutput(TARGET, List.of(new CassandraOutput.Binding(SESSIONS.stateMap(), TABLE,
                CassandraBindingTest::row, key -> new Object[] {0L, 0L})), SinkOptions.defaults());

        assertThat(WindowedDag.of(SESSIONS, Path.of("log").toString(), 1, output).getVertex("user-sessions-cassandra-sessions"))
                .isNotNull();
    }
}
