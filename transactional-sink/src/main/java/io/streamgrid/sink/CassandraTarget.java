package io.streamgrid.sink;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.CqlSessionBuilder;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.config.DefaultDriverOption;
import com.datastax.oss.driver.api.core.config.DriverConfigLoader;
import com.datastax.oss.driver.api.core.config.ProgrammaticDriverConfigLoaderBuilder;

import java.io.Serializable;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * Where the sink writes: a Cassandra cluster (contact points, local data centre), the keyspace's
 * replication, the write consistency level and how to log in and encrypt. Immutable; travels inside
 * Jet jobs — which is why it holds where the passwords are read ({@link Secret}), never the
 * passwords.
 *
 * @param contactPoints      host:port of some nodes
 * @param replication        the keyspace's replication map in CQL, e.g.
 *                           {@code {'class': 'SimpleStrategy', 'replication_factor': 1}}
 * @param consistencyLevel   e.g. LOCAL_QUORUM, ONE
 * @param security           authentication and TLS ({@link CassandraSecurity#NONE}: neither)
 */
public record CassandraTarget(List<String> contactPoints, String localDatacenter, String keyspace, String replication,
                              String consistencyLevel, CassandraSecurity security) implements Serializable {

    /** Without authentication or TLS. */
    public CassandraTarget(final List<String> contactPoints, final String localDatacenter, final String keyspace,
                           final String replication, final String consistencyLevel) {
        this(contactPoints, localDatacenter, keyspace, replication, consistencyLevel, CassandraSecurity.NONE);
    }

    public CassandraTarget {
        security = security == null ? CassandraSecurity.NONE : security;
        contactPoints = List.copyOf(contactPoints);
        if (contactPoints.isEmpty()) {
            throw new IllegalArgumentException("at least one contact point (host:port) is needed");
        }
        contactPoints.forEach(CassandraTarget::address);
        consistency(consistencyLevel);
    }

    /** One local server, keyspace with replication factor 1 and consistency ONE. */
    public static CassandraTarget local(final CassandraServer server, final String keyspace) {
        return new CassandraTarget(List.of("127.0.0.1:" + server.nativePort()), CassandraServer.LOCAL_DATACENTER, keyspace,
                "{'class': 'SimpleStrategy', 'replication_factor': 1}", "ONE");
    }

    /** The same cluster, logging in and encrypting as {@code security} says. */
    public CassandraTarget withSecurity(final CassandraSecurity security) {
        return new CassandraTarget(contactPoints, localDatacenter, keyspace, replication, consistencyLevel, security);
    }

    public ConsistencyLevel consistency() {
        return consistency(consistencyLevel);
    }

    /**
     * A session with 10 s request timeouts and this target's consistency level, logged in and
     * encrypted as {@link #security()} says; the caller closes it.
     *
     * @throws com.datastax.oss.driver.api.core.AllNodesFailedException when no contact point answers
     *                                                                  (or refuses the login)
     * @throws IllegalStateException when a password's {@link Secret} cannot be read (naming where)
     */
    public CqlSession connect() {
        return connect(false);
    }

    /**
     * A session for the sink: no schema metadata (the driver would fetch it at every start —
     * seconds per processor on a busy machine), and it keeps trying to connect while Cassandra is
     * down instead of failing, so a job stalls rather than dies.
     */
    public CqlSession connectForWrites() {
        return connect(true);
    }

    private CqlSession connect(final boolean forWrites) {
        final ProgrammaticDriverConfigLoaderBuilder settings = DriverConfigLoader.programmaticBuilder()
                .withBoolean(DefaultDriverOption.METADATA_SCHEMA_ENABLED, !forWrites)
                .withDuration(DefaultDriverOption.REQUEST_TIMEOUT, Duration.ofSeconds(10))
                .withString(DefaultDriverOption.REQUEST_CONSISTENCY, consistencyLevel.toUpperCase(Locale.ROOT))
                .withDuration(DefaultDriverOption.CONNECTION_INIT_QUERY_TIMEOUT, Duration.ofSeconds(10))
                .withBoolean(DefaultDriverOption.RECONNECT_ON_INIT, forWrites)
                // A node back from a restart is used within 5 s, not after up to a minute (the driver's
                // default backoff): writers waiting for it (the sink's commits, persisted state maps) stall less.
                .withDuration(DefaultDriverOption.RECONNECTION_MAX_DELAY, Duration.ofSeconds(5))
                // Closing waits for the event loops to stay quiet this long (driver default 2 s): every
                // request has been answered when we close, and a job's end waited for it (measured: 2.0 s).
                .withInt(DefaultDriverOption.NETTY_IO_SHUTDOWN_QUIET_PERIOD, 0)
                .withInt(DefaultDriverOption.NETTY_ADMIN_SHUTDOWN_QUIET_PERIOD, 0);
        if (security.encrypts()) {
            settings.withString(DefaultDriverOption.SSL_ENGINE_FACTORY_CLASS, "DefaultSslEngineFactory")
                    .withString(DefaultDriverOption.SSL_TRUSTSTORE_PATH, security.truststore())
                    .withBoolean(DefaultDriverOption.SSL_HOSTNAME_VALIDATION, security.hostnameValidation());
            if (security.truststorePassword() != null) {
                settings.withString(DefaultDriverOption.SSL_TRUSTSTORE_PASSWORD, security.truststorePassword().reveal());
            }
        }
        final CqlSessionBuilder builder = CqlSession.builder()
                .addContactPoints(contactPoints.stream().map(CassandraTarget::address).toList())
                .withLocalDatacenter(localDatacenter)
                .withConfigLoader(settings.build());
        if (security.authenticates()) {
            builder.withAuthCredentials(security.username(), security.password().reveal());
        }
        return builder.build();
    }

    private static InetSocketAddress address(final String hostPort) {
        final int colon = hostPort.lastIndexOf(':');
        try {
            return InetSocketAddress.createUnresolved(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
        } catch (final RuntimeException e) {
            throw new IllegalArgumentException("contact point '" + hostPort + "' is not host:port", e);
        }
    }

    private static ConsistencyLevel consistency(final String name) {
        try {
            return DefaultConsistencyLevel.valueOf(name.toUpperCase(Locale.ROOT));
        } catch (final RuntimeException e) {
            throw new IllegalArgumentException("consistency level '" + name + "' is not one of ONE, QUORUM, LOCAL_QUORUM, ALL, ...", e);
        }
    }
}
