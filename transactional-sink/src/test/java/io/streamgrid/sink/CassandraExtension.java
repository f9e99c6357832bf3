package io.streamgrid.sink;

import com.datastax.oss.driver.api.core.CqlSession;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.nio.file.Path;
import java.util.UUID;

/**
 * A real Cassandra server (a child JVM) for a test class, with a session of the test's own:
 * {@code @RegisterExtension static final CassandraExtension CASSANDRA = new CassandraExtension();}.
 * Started before the class's first test in a fresh directory of the test work directory, stopped
 * (by PID) after its last.
 */
public final class CassandraExtension implements BeforeAllCallback, AfterAllCallback {
    private CassandraServer server;
    private CqlSession session;

    @Override
    public void beforeAll(final ExtensionContext context) {
        final Path dir = Path.of(System.getProperty("streamgrid.test.workDir", "target/test-work"), "cassandra-" + UUID.randomUUID());
        server = CassandraServer.start(dir, line -> System.out.println("[cassandra] " + line));
        session = server.newSession();
    }

    @Override
    public void afterAll(final ExtensionContext context) {
        if (session != null) {
            session.close();
        }
        if (server != null) {
            server.close();
        }
    }

    public CassandraServer server() {
        return server;
    }

    public CqlSession session() {
        return session;
    }

    /** A new session in place of the test's own (after the server restarted: the old one may wait out its reconnection delay). */
    public CqlSession reconnect() {
        session.close();
        session = server.newSession();
        return session;
    }
}
