package io.streamgrid.sink;

import com.datastax.oss.driver.api.core.CqlSession;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * A real Apache Cassandra server (cassandra-all) in a child JVM on 127.0.0.1, for tests, the demo
 * and perf. Its class path is its own folder ({@code streamgrid.cassandra.lib}, filled by the
 * build's {@code transactional-sink/cassandra-server} module), never the project's. Data, logs and
 * its generated {@code cassandra.yaml} live under the directory given; its ports are free ones
 * picked at the directory's first start and kept across {@link #stop()} / {@link #start()} and
 * later servers on the same directory (read back from that file).
 *
 * <p>{@link #start()} returns when CQL connections are accepted. {@link #close()} stops it by PID
 * (SIGTERM, then SIGKILL after 60 s); a JVM shutdown hook does the same if the owner never does.
 *
 * <p>A server can be started with settings of its own laid over the generated {@code cassandra.yaml}
 * (authentication, client TLS): its own sessions ({@link #newSession()}, the start's readiness
 * check) then log in and encrypt as the {@link CassandraSecurity} given with them says.
 */
public final class CassandraServer implements AutoCloseable {
    public static final String LIB_PROPERTY = "streamgrid.cassandra.lib";
    public static final String LOCAL_DATACENTER = "datacenter1";
    private static final String HOST = "127.0.0.1";

    private final Path dir;
    private final Path lib;
    private final String heap;
    private final Consumer<String> progress;
    private final int storagePort;
    private final int nativePort;
    /** Top-level cassandra.yaml entries (key → YAML text of the value) laid over the generated ones. */
    private final Map<String, String> settings;
    /** How this server's own sessions log in and encrypt. */
    private final CassandraSecurity sessions;
    private final ChildJvm jvm;

    private CassandraServer(final Path dir, final Path lib, final String heap, final Consumer<String> progress,
                            final Map<String, String> settings, final CassandraSecurity sessions, final int requestedNativePort) {
        this.dir = dir.toAbsolutePath();
        this.lib = lib;
        this.heap = heap;
        this.progress = progress;
        this.settings = Map.copyOf(settings);
        this.sessions = sessions;
        // A directory started before keeps its ports, so that the contact point members were given stays right.
        final int[] earlier = earlierPorts(this.dir);
        this.storagePort = earlier != null ? earlier[0] : ChildJvm.freePort(HOST, requestedNativePort);
        this.nativePort = requestedNativePort > 0 ? requestedNativePort
                : earlier != null ? earlier[1] : ChildJvm.freePort(HOST, storagePort);
        for (final int port : new int[] {storagePort, nativePort}) {
            try (java.net.ServerSocket probe = new java.net.ServerSocket(port, 1, java.net.InetAddress.getByName(HOST))) {
                // free
            } catch (final IOException taken) {
                throw new IllegalArgumentException("port " + port + " on " + HOST + (earlier != null && port != requestedNativePort
                        ? " (the one " + this.dir + " used before)" : "") + " is in use: stop what holds it, or start Cassandra with"
                        + " another port or directory", taken);
            }
        }
        this.jvm = new ChildJvm("Cassandra", this.dir.resolve("cassandra.log"), progress);
    }

    /**
     * The storage and CQL ports an earlier start in {@code dir} used (from the cassandra.yaml it
     * wrote there), or null when there was none.
     */
    static int[] earlierPorts(final Path dir) {
        final Path yaml = dir.resolve("cassandra.yaml");
        if (!Files.isRegularFile(yaml)) {
            return null;
        }
        try {
            int storage = -1;
            int cql = -1;
            for (final String line : Files.readAllLines(yaml, StandardCharsets.UTF_8)) {
                if (line.startsWith("storage_port: ")) {
                    storage = Integer.parseInt(line.substring("storage_port: ".length()).trim());
                } else if (line.startsWith("native_transport_port: ")) {
                    cql = Integer.parseInt(line.substring("native_transport_port: ".length()).trim());
                }
            }
            return storage > 0 && cql > 0 ? new int[] {storage, cql} : null;
        } catch (final IOException | NumberFormatException e) {
            return null; // not one this class wrote: new ports
        }
    }

    /**
     * Starts a server in {@code dir} (created if needed) with a 1 GB heap; returns when it accepts
     * CQL connections.
     *
     * @throws IllegalStateException when the server's folder is missing, or it does not start in
     *                               3 minutes (the message names its log file)
     */
    public static CassandraServer start(final Path dir, final Consumer<String> progress) {
        return start(dir, progress, Map.of(), CassandraSecurity.NONE);
    }

    /**
     * As {@link #start(Path, Consumer)}, CQL on {@code nativePort}; 0 keeps the port of an earlier
     * start in {@code dir}, or picks a free one.
     *
     * @throws IllegalArgumentException when a port it would use is taken
     */
    public static CassandraServer start(final Path dir, final int nativePort, final Consumer<String> progress) {
        return start(new CassandraServer(dir, libDir(), "1g", progress, Map.of(), CassandraSecurity.NONE, nativePort));
    }

    /**
     * As {@link #start(Path, Consumer)}, with {@code settings} (top-level cassandra.yaml keys → the
     * YAML text of their values, e.g. {@code authenticator → PasswordAuthenticator}) laid over the
     * generated file; the server's own sessions log in and encrypt as {@code sessions} says.
     */
    public static CassandraServer start(final Path dir, final Consumer<String> progress, final Map<String, String> settings,
                                        final CassandraSecurity sessions) {
        return start(new CassandraServer(dir, libDir(), "1g", progress, settings, sessions, 0));
    }

    private static CassandraServer start(final CassandraServer server) {
        try {
            server.start();
            return server;
        } catch (final RuntimeException e) {
            server.close();
            throw e;
        }
    }

    /** Where the server's jars are: system property {@value #LIB_PROPERTY}. */
    public static Path libDir() {
        final String value = System.getProperty(LIB_PROPERTY);
        if (value == null || !Files.isDirectory(Path.of(value))) {
            throw new IllegalStateException("the Cassandra server's jars are not at " + LIB_PROPERTY + "=" + value
                    + ": build them with 'mvn -pl transactional-sink/cassandra-server package' and pass -D"
                    + LIB_PROPERTY + "=<that module>/target/lib");
        }
        return Path.of(value);
    }

    /** Starts (again) on the same directory and ports; returns when CQL connections are accepted. */
    public synchronized void start() {
        final long started = System.nanoTime();
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("cassandra.yaml"), yaml(), StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("logback.xml"), LOGBACK, StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot start Cassandra in " + dir, e);
        }
        jvm.start(command());
        progress.accept("starting Cassandra (pid " + jvm.pid() + ", CQL on " + HOST + ":" + nativePort + ", log " + logFile() + ")");
        awaitCql(Duration.ofMinutes(3));
        progress.accept("Cassandra accepts CQL after " + Duration.ofNanos(System.nanoTime() - started).toMillis() + " ms");
    }

    /** SIGTERM by PID; SIGKILL if it has not exited after 60 s. Data stays for a later {@link #start()}. */
    public void stop() {
        jvm.stop();
    }

    /** SIGKILL by PID, at once. */
    public void kill() {
        jvm.kill();
    }

    public boolean isRunning() {
        return jvm.isRunning();
    }

    /** The server process's id. @throws IllegalStateException when it is not running */
    public long pid() {
        return jvm.pid();
    }

    public InetSocketAddress contactPoint() {
        return new InetSocketAddress(HOST, nativePort);
    }

    public int nativePort() {
        return nativePort;
    }

    public Path logFile() {
        return jvm.logFile();
    }

    /**
     * A session to this server (the caller closes it), logged in and encrypted as the server's start
     * said: {@link CassandraTarget#connect()}'s (10 s request timeouts — the driver's 2 s default
     * failed a DROP TABLE once on a busy 2-core machine).
     */
    public CqlSession newSession() {
        return CassandraTarget.local(this, "system").withSecurity(sessions).connect();
    }

    @Override
    public void close() {
        jvm.close();
    }

    private void awaitCql(final Duration timeout) {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            jvm.checkAlive("while starting");
            if (ChildJvm.portOpen(contactPoint())) {
                try (CqlSession session = newSession()) {
                    session.execute("SELECT release_version FROM system.local");
                    return;
                } catch (final RuntimeException notYet) {
                    // the port opens a moment before queries work
                }
            }
            ChildJvm.sleep(250, "Cassandra");
        }
        throw new IllegalStateException("Cassandra did not accept CQL within " + timeout + "; see " + logFile());
    }

    private List<String> command() {
        final List<String> command = new ArrayList<>();
        command.add("-Xms" + heap);
        command.add("-Xmx" + heap);
        command.add("-XX:+UseG1GC");
        command.add("-Djava.net.preferIPv4Stack=true");
        command.add("-Dcassandra.config=" + dir.resolve("cassandra.yaml").toUri());
        command.add("-Dcassandra-foreground=yes");
        command.add("-Dcassandra.skip_wait_for_gossip_to_settle=0");
        // With PasswordAuthenticator the default superuser exists 10 s after the start otherwise.
        command.add("-Dcassandra.superuser_setup_delay_ms=0");
        command.add("-Dcassandra.storagedir=" + dir);
        command.add("-Dcassandra.logdir=" + dir);
        command.add("-Dlogback.configurationFile=" + dir.resolve("logback.xml"));
        for (final String module : List.of("java.base/jdk.internal.misc", "java.base/jdk.internal.ref", "java.base/sun.nio.ch",
                "java.management.rmi/com.sun.jmx.remote.internal.rmi", "java.rmi/sun.rmi.registry",
                "java.rmi/sun.rmi.server", "java.sql/java.sql")) {
            command.add("--add-exports");
            command.add(module + "=ALL-UNNAMED");
        }
        for (final String pkg : List.of("java.lang.module", "jdk.internal.loader", "jdk.internal.ref", "jdk.internal.reflect",
                "jdk.internal.math", "jdk.internal.module", "jdk.internal.util.jar", "sun.nio.ch", "java.io", "java.nio",
                "java.util.concurrent", "java.util", "java.util.concurrent.atomic", "java.lang", "java.math",
                "java.lang.reflect", "java.net")) {
            command.add("--add-opens");
            command.add("java.base/" + pkg + "=ALL-UNNAMED");
        }
        command.add("--add-opens");
        command.add("jdk.management/com.sun.management.internal=ALL-UNNAMED");
        command.add("-cp");
        command.add(lib + "/*");
        command.add("org.apache.cassandra.service.CassandraDaemon");
        return ChildJvm.javaCommand(command);
    }

    private String yaml() {
        final Map<String, String> entries = new LinkedHashMap<>();
        entries.put("cluster_name", "streamgrid");
        entries.put("num_tokens", "1");
        entries.put("partitioner", "org.apache.cassandra.dht.Murmur3Partitioner");
        entries.put("data_file_directories", "[" + dir.resolve("data") + "]");
        entries.put("commitlog_directory", dir.resolve("commitlog").toString());
        entries.put("saved_caches_directory", dir.resolve("saved_caches").toString());
        entries.put("hints_directory", dir.resolve("hints").toString());
        entries.put("cdc_raw_directory", dir.resolve("cdc_raw").toString());
        entries.put("commitlog_sync", "periodic");
        entries.put("commitlog_sync_period", "10000ms");
        entries.put("seed_provider", String.join("\n", "",
                "  - class_name: org.apache.cassandra.locator.SimpleSeedProvider",
                "    parameters:",
                "      - seeds: \"" + HOST + ":" + storagePort + "\""));
        entries.put("listen_address", HOST);
        entries.put("rpc_address", HOST);
        entries.put("storage_port", Integer.toString(storagePort));
        entries.put("native_transport_port", Integer.toString(nativePort));
        entries.put("start_native_transport", "true");
        entries.put("endpoint_snitch", "SimpleSnitch");
        entries.put("authenticator", "AllowAllAuthenticator");
        entries.put("authorizer", "AllowAllAuthorizer");
        entries.putAll(settings);
        final StringBuilder yaml = new StringBuilder();
        entries.forEach((key, value) -> yaml.append(key).append(':').append(value.startsWith("\n") ? "" : " ").append(value).append('\n'));
        return yaml.toString();
    }

    private static final String LOGBACK = String.join("\n",
            "<configuration>",
            "  <appender name=\"OUT\" class=\"ch.qos.logback.core.ConsoleAppender\">",
            "    <encoder><pattern>%d{HH:mm:ss.SSS} %-5level [%thread] %logger{0} - %msg%n</pattern></encoder>",
            "  </appender>",
            "  <root level=\"INFO\"><appender-ref ref=\"OUT\"/></root>",
            "</configuration>", "");
}
