package io.streamgrid.sink;

import com.datastax.oss.driver.api.core.CqlSession;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class CassandraServerSmokeTest {
    @TempDir
    Path dir;

    @Test
    void when_started_then_acceptsCqlAndStopsByPid() {
        try (CassandraServer server = CassandraServer.start(dir, System.out::println); CqlSession session = server.newSession()) {
            assertThat(session.execute("SELECT release_version FROM system.local").one().getString(0)).startsWith("5.0");
        }
    }
}
