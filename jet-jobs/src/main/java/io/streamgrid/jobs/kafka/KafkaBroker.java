package io.streamgrid.jobs.kafka;

import io.streamgrid.sink.ChildJvm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.function.Consumer;

/**
 * A development Apache Kafka broker: one KRaft node (broker and controller in one JVM) on a host
 * address, in a child JVM whose class path is its own folder ({@code streamgrid.kafka.lib}, filled
 * by the build's {@code jet-jobs/kafka-server} module), never the project's. For tests, demos,
 * perf and {@code ./streamgrid kafka} — not a production deployment (one replica; use a real
 * cluster there). Data, logs and the generated {@code server.properties} live under the directory
 * given; its storage is formatted at the first start and kept across {@link #stop()} /
 * {@link #start()}, and so are its ports. Transactions and idempotent producers work (their
 * internal topics have one replica).
 */
public final class KafkaBroker implements AutoCloseable {
    public static final String LIB_PROPERTY = "streamgrid.kafka.lib";

    private final Path dir;
    private final Path lib;
    private final String host;
    private final int port;
    private final int controllerPort;
    private final Consumer<String> progress;
    private final ChildJvm jvm;

    private KafkaBroker(final Path dir, final Path lib, final String host, final Consumer<String> progress) {
        this.dir = dir.toAbsolutePath();
        this.lib = lib;
        this.host = host;
        this.progress = progress;
        this.port = ChildJvm.freePort(host);
        this.controllerPort = ChildJvm.freePort(host, port);
        this.jvm = new ChildJvm("Kafka", this.dir.resolve("broker.log"), progress);
    }

    /**
     * Starts a broker on 127.0.0.1 with its data in {@code dir} (created if needed); returns when it
     * accepts clients.
     *
     * @throws IllegalStateException when the broker's jars are missing, or it does not start within
     *                               2 minutes (the message names its log file)
     */
    public static KafkaBroker start(final Path dir, final Consumer<String> progress) {
        return start(dir, "127.0.0.1", progress);
    }

    /** As {@link #start(Path, Consumer)}, listening on {@code host} (e.g. an address of a network namespace this JVM is in). */
    public static KafkaBroker start(final Path dir, final String host, final Consumer<String> progress) {
        final KafkaBroker broker = new KafkaBroker(dir, libDir(), host, progress);
        try {
            broker.start();
            return broker;
        } catch (final RuntimeException e) {
            broker.close();
            throw e;
        }
    }

    /** Where the broker's jars are: system property {@value #LIB_PROPERTY}. */
    public static Path libDir() {
        final String value = System.getProperty(LIB_PROPERTY);
        if (value == null || !Files.isDirectory(Path.of(value))) {
            throw new IllegalStateException("the Kafka broker's jars are not at " + LIB_PROPERTY + "=" + value
                    + ": build them with 'mvn -pl jet-jobs/kafka-server generate-resources' and pass -D" + LIB_PROPERTY
                    + "=<that module>/target/lib");
        }
        return Path.of(value);
    }

    /** Starts (again) on the same directory and ports, formatting the storage the first time; returns when clients are accepted. */
    public synchronized void start() {
        final long started = System.nanoTime();
        try {
            Files.createDirectories(dir);
            Files.writeString(dir.resolve("server.properties"), properties(), StandardCharsets.UTF_8);
            Files.writeString(dir.resolve("log4j2.properties"), LOG4J, StandardCharsets.UTF_8);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot prepare the Kafka broker in " + dir, e);
        }
        if (!Files.exists(dir.resolve("data").resolve("meta.properties"))) {
            format();
        }
        jvm.start(command("kafka.Kafka", dir.resolve("server.properties").toString()));
        progress.accept("starting Kafka (pid " + jvm.pid() + ", clients on " + bootstrapServers() + ", log " + jvm.logFile() + ")");
        awaitStarted(Duration.ofMinutes(2));
        progress.accept("Kafka accepts clients after " + Duration.ofNanos(System.nanoTime() - started).toMillis() + " ms");
    }

    /** Formats the storage of a new node (its cluster id drawn at random), as {@code kafka-storage.sh format} does. */
    private void format() {
        final String clusterId = newClusterId(new SecureRandom());
        final ChildJvm formatter = new ChildJvm("Kafka storage format", dir.resolve("format.log"), progress);
        try {
            formatter.start(command("kafka.tools.StorageTool", "format", "-t", clusterId, "-c", dir.resolve("server.properties").toString()));
            final long deadline = System.nanoTime() + Duration.ofMinutes(1).toNanos();
            while (formatter.isRunning() && System.nanoTime() < deadline) {
                ChildJvm.sleep(100, "the Kafka storage format");
            }
            if (!Files.exists(dir.resolve("data").resolve("meta.properties"))) {
                throw new IllegalStateException("formatting the Kafka broker's storage in " + dir.resolve("data") + " failed; see "
                        + formatter.logFile());
            }
        } finally {
            formatter.kill();
            formatter.close();
        }
    }

    /**
     * A random cluster id: 16 bytes in URL-safe Base64 (22 characters), drawn again while it begins
     * with '-', which the storage tool would take for an option (Kafka's own {@code Uuid} avoids
     * such ids for the same reason).
     */
    static String newClusterId(final Random random) {
        final byte[] id = new byte[16];
        String clusterId;
        do {
            random.nextBytes(id);
            clusterId = Base64.getUrlEncoder().withoutPadding().encodeToString(id);
        } while (clusterId.startsWith("-"));
        return clusterId;
    }

    /** SIGTERM by PID (the broker shuts down cleanly); SIGKILL if it has not exited after 60 s. Data stays. */
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

    public long pid() {
        return jvm.pid();
    }

    /** host:port for clients' {@code bootstrap.servers}. */
    public String bootstrapServers() {
        return host + ":" + port;
    }

    public Path logFile() {
        return jvm.logFile();
    }

    @Override
    public void close() {
        jvm.close();
    }

    private void awaitStarted(final Duration timeout) {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            jvm.checkAlive("while starting");
            if (ChildJvm.portOpen(new InetSocketAddress(host, port)) && logSays("Kafka Server started")) {
                return;
            }
            ChildJvm.sleep(200, "Kafka");
        }
        throw new IllegalStateException("Kafka did not start within " + timeout + "; see " + jvm.logFile());
    }

    private boolean logSays(final String text) {
        try {
            return Files.readString(jvm.logFile(), StandardCharsets.UTF_8).contains(text);
        } catch (final IOException notYet) {
            return false;
        }
    }

    private List<String> command(final String mainClass, final String... arguments) {
        final List<String> command = new ArrayList<>(List.of("-Xms256m", "-Xmx512m", "-XX:+UseG1GC",
                "-Djava.net.preferIPv4Stack=true", "-Dlog4j2.configurationFile=" + dir.resolve("log4j2.properties"),
                "-Dkafka.logs.dir=" + dir, "-cp", lib + "/*", mainClass));
        command.addAll(List.of(arguments));
        return ChildJvm.javaCommand(command);
    }

    private String properties() {
        return String.join("\n",
                "process.roles=broker,controller",
                "node.id=1",
                "controller.quorum.voters=1@" + host + ":" + controllerPort,
                "listeners=PLAINTEXT://" + host + ":" + port + ",CONTROLLER://" + host + ":" + controllerPort,
                "advertised.listeners=PLAINTEXT://" + host + ":" + port,
                "controller.listener.names=CONTROLLER",
                "inter.broker.listener.name=PLAINTEXT",
                "listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT",
                "log.dirs=" + dir.resolve("data"),
                // One node: the internal topics of offsets and transactions have one replica.
                "offsets.topic.replication.factor=1",
                "transaction.state.log.replication.factor=1",
                "transaction.state.log.min.isr=1",
                "share.coordinator.state.topic.replication.factor=1",
                "share.coordinator.state.topic.min.isr=1",
                "group.initial.rebalance.delay.ms=0",
                // Topics are created by StreamGrid with the partitions of their schema, never by a typo.
                "auto.create.topics.enable=false",
                "");
    }

    private static final String LOG4J = String.join("\n",
            "appender.out.type=Console",
            "appender.out.name=OUT",
            "appender.out.layout.type=PatternLayout",
            "appender.out.layout.pattern=%d{HH:mm:ss.SSS} %-5level [%t] %c{1} - %m%n",
            "rootLogger.level=INFO",
            "rootLogger.appenderRef.out.ref=OUT",
            "logger.kafka.name=org.apache.kafka",
            "logger.kafka.level=WARN",
            "logger.core.name=kafka",
            "logger.core.level=INFO",
            "");
}
