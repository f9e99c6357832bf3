package io.streamgrid.cluster;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastInstance;
import io.streamgrid.client.ClientSettings;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * A StreamGrid cluster of member JVMs on loopback, for tests, the demo and perf. Each member is a
 * separate process ({@code streamgrid node}) with its own port, data directory and log file under
 * the work directory.
 *
 * <p>Every method that changes membership returns only when the cluster is safe again: all members
 * see the expected member count, no migration is queued and every backup is in sync — except
 * {@link #kill(MemberProcess)}, which leaves waiting to the caller (that is the point of a kill).
 *
 * <p>No orphans: {@link #close()} kills every member by PID; so does a JVM shutdown hook if the
 * owner never calls it; and each member watches this JVM's PID and halts when it disappears (even
 * after a SIGKILL). A {@linkplain Builder#detached() detached} cluster skips all three, for
 * {@code streamgrid cluster start}, whose members must outlive the command.
 */
public final class LocalCluster implements AutoCloseable {
    /** Where the shared JVM flags are packed in the grid-node jar (from etc/jvm.options). */
    public static final String JVM_OPTIONS_RESOURCE = "streamgrid/jvm.options";
    /** The flags of long-lived members only (etc/member-jvm.options), packed beside them. */
    private static final String MEMBER_JVM_OPTIONS_RESOURCE = "streamgrid/member-jvm.options";
    static final String HOST = "127.0.0.1";
    private static final String MAIN_CLASS = "io.streamgrid.cli.StreamGridCli";
    /** Marks a member JVM's command line: {@code -Dstreamgrid.member=<cluster>:<port>}. */
    static final String MEMBER_MARKER = "-Dstreamgrid.member=";

    private final Builder spec;
    private final Path jvmOptionsFile;
    /** etc/member-jvm.options in the work directory, for {@linkplain Builder#longLivedMembers() long-lived} members; else null. */
    private final Path memberJvmOptionsFile;
    private final List<MemberProcess> members = new CopyOnWriteArrayList<>();
    private final List<HazelcastInstance> clients = new CopyOnWriteArrayList<>();
    private final Thread shutdownHook;
    private int nextIndex = 1;
    /** Every port this cluster chose (members' and metrics'), so that none is chosen twice before it is bound. */
    private final List<Integer> chosenPorts = new CopyOnWriteArrayList<>();

    private LocalCluster(final Builder spec) {
        this.spec = spec;
        this.jvmOptionsFile = writeJvmOptions(spec.workDir);
        this.memberJvmOptionsFile = spec.longLived
                ? copyResource(MEMBER_JVM_OPTIONS_RESOURCE, spec.workDir.resolve("member-jvm.options")) : null;
        this.shutdownHook = spec.detached ? null : new Thread(this::killAll, "local-cluster-cleanup");
        if (shutdownHook != null) {
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        }
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Starts the configured number of members and waits until the cluster is safe. */
    private LocalCluster startAll() {
        final int count = spec.initialMembers;
        final List<Integer> ports = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ports.add(nextPort(ports));
        }
        final String memberList = ports.stream().map(p -> HOST + ":" + p).collect(Collectors.joining(","));
        spec.progress.accept("starting " + count + " member JVMs on " + memberList + " (cluster " + spec.clusterName + ")");
        for (final int port : ports) {
            members.add(launch(port, memberList, Map.of()));
        }
        final Duration took = awaitSafe(count, spec.startTimeout);
        spec.progress.accept("cluster of " + count + " members is safe after " + took.toMillis() + " ms");
        return this;
    }

    /** Starts one more member and returns it once it has joined and migration has finished. */
    public MemberProcess addMember() {
        return addMember(Map.of());
    }

    /**
     * As {@link #addMember()}, the member's process having {@code environment} added to this
     * process's environment (a library to preload, a time zone).
     */
    public MemberProcess addMember(final Map<String, String> environment) {
        final List<Integer> taken = members.stream().map(MemberProcess::port).collect(Collectors.toList());
        final int port = nextPort(taken);
        final String memberList = members.stream().map(MemberProcess::address).collect(Collectors.joining(","))
                + (members.isEmpty() ? "" : ",") + HOST + ":" + port;
        final MemberProcess member = launch(port, memberList, environment);
        members.add(member);
        spec.progress.accept("added " + member + "; waiting for migration");
        final Duration took = awaitSafe(members.size(), spec.startTimeout);
        spec.progress.accept("cluster of " + members.size() + " members is safe, " + took.toMillis() + " ms after start of " + member);
        return member;
    }

    /**
     * Stops {@code member} gracefully (SIGTERM: its partitions migrate to the others before it
     * exits) and waits until the rest are safe. Returns how long that took.
     *
     * @throws IllegalStateException if the member does not exit within the graceful wait
     */
    public Duration stopGracefully(final MemberProcess member) {
        final long start = System.nanoTime();
        requireMember(member);
        spec.progress.accept("stopping " + member + " gracefully");
        if (!member.terminateAndWait(spec.gracefulStopTimeout)) {
            throw new IllegalStateException(member + " did not exit within " + spec.gracefulStopTimeout
                    + " of SIGTERM; see " + member.logFile());
        }
        members.remove(member);
        awaitSafe(members.size(), spec.startTimeout);
        final Duration took = Duration.ofNanos(System.nanoTime() - start);
        spec.progress.accept("stopped " + member + "; " + members.size() + " members safe after " + took.toMillis() + " ms");
        return took;
    }

    /**
     * Stops the whole cluster as {@code streamgrid cluster stop} does: SIGTERM to every member at
     * once (each shuts down gracefully, writing what it must first), then waits for all to exit.
     * Returns how long that took.
     *
     * @throws IllegalStateException if a member does not exit within the graceful wait
     */
    public Duration stopAll() {
        final long start = System.nanoTime();
        spec.progress.accept("stopping all " + members.size() + " members (SIGTERM)");
        members.forEach(MemberProcess::terminate);
        for (final MemberProcess member : List.copyOf(members)) {
            if (!member.waitForExit(spec.gracefulStopTimeout)) {
                throw new IllegalStateException(member + " did not exit within " + spec.gracefulStopTimeout
                        + " of SIGTERM; see " + member.logFile());
            }
            members.remove(member);
        }
        final Duration took = Duration.ofNanos(System.nanoTime() - start);
        spec.progress.accept("all members stopped after " + took.toMillis() + " ms");
        return took;
    }

    /** SIGKILL: the member dies at once, without migrating anything. Returns once the process is gone. */
    public void kill(final MemberProcess member) {
        requireMember(member);
        spec.progress.accept("kill -9 " + member);
        member.kill();
        members.remove(member);
    }

    /**
     * Waits until every live member reports itself ACTIVE in a safe cluster of
     * {@code expectedMembers} with no migration queued, and ready — its persisted state loaded
     * ({@link MemberProcess#notReady()}); says what it waits for every 15 s; returns how long it
     * waited.
     *
     * @throws IllegalStateException on timeout, or when a member process has died meanwhile,
     *                               with each member's last health and log file
     */
    public Duration awaitSafe(final int expectedMembers, final Duration timeout) {
        final long start = System.nanoTime();
        final long deadline = start + timeout.toNanos();
        long nextProgress = start + TimeUnit.SECONDS.toNanos(15);
        while (true) {
            final List<String> notSafe = new ArrayList<>();
            for (final MemberProcess member : members) {
                if (!member.isAlive()) {
                    throw new IllegalStateException(member + " exited unexpectedly; see " + member.logFile());
                }
                final Optional<MemberHealth> health = member.health();
                if (health.isEmpty() || !health.get().isSafeWith(expectedMembers)) {
                    notSafe.add(member + ": " + health.map(Object::toString).orElse("no answer") + ", log " + member.logFile());
                } else {
                    final String notReady = member.notReady();
                    if (notReady != null) {
                        notSafe.add(member + ": " + notReady + ", log " + member.logFile());
                    }
                }
            }
            if (notSafe.isEmpty() && members.size() == expectedMembers) {
                return Duration.ofNanos(System.nanoTime() - start);
            }
            final long now = System.nanoTime();
            if (now > deadline) {
                throw new IllegalStateException("cluster not safe and ready with " + expectedMembers + " members after "
                        + timeout + ": " + String.join("; ", notSafe));
            }
            if (now > nextProgress) {
                spec.progress.accept("waiting for the cluster to be safe and ready: " + String.join("; ", notSafe));
                nextProgress = now + TimeUnit.SECONDS.toNanos(15);
            }
            sleep(100);
        }
    }

    /** The members alive, in start order. */
    public List<MemberProcess> members() {
        return List.copyOf(members);
    }

    public String clusterName() {
        return spec.clusterName;
    }

    public Path workDir() {
        return spec.workDir;
    }

    /** A client configuration that reaches every live member (smart routing). */
    public ClientConfig clientConfig() {
        return clientSettings().toHazelcastConfig();
    }

    /** Settings for a StreamGrid client of this cluster (live members, 60 s connect timeout). */
    public ClientSettings clientSettings() {
        return ClientSettings.of(spec.clusterName, members.stream().map(MemberProcess::address).toList())
                .withConnectTimeout(Duration.ofSeconds(60));
    }

    /** A new client connected to this cluster; shut down by {@link #close()} if not before. */
    public HazelcastInstance newClient() {
        final HazelcastInstance client = HazelcastClient.newHazelcastClient(clientConfig());
        clients.add(client);
        return client;
    }

    /**
     * Shuts down the clients made here and kills every member by PID. State is discarded: use
     * {@link #stopGracefully} first where a member's data must survive.
     */
    @Override
    public void close() {
        for (final HazelcastInstance client : clients) {
            try {
                client.shutdown();
            } catch (final RuntimeException e) {
                spec.progress.accept("client shutdown failed (ignored, members are killed next): " + e);
            }
        }
        clients.clear();
        killAll();
        if (shutdownHook != null) {
            try {
                Runtime.getRuntime().removeShutdownHook(shutdownHook);
            } catch (final IllegalStateException alreadyShuttingDown) {
                // the hook is running or has run: nothing left to remove
            }
        }
    }

    private void killAll() {
        for (final MemberProcess member : members) {
            member.kill();
        }
        members.clear();
    }

    /** Writes the JVM flags every StreamGrid JVM needs into {@code dir}/jvm.options (an @argfile); returns its path. */
    public static Path writeJvmOptions(final Path dir) {
        return copyResource(JVM_OPTIONS_RESOURCE, dir.resolve("jvm.options"));
    }

    private static Path copyResource(final String resource, final Path file) {
        try {
            Files.createDirectories(file.getParent());
            try (InputStream in = LocalCluster.class.getClassLoader().getResourceAsStream(resource)) {
                if (in == null) {
                    throw new IllegalStateException("bug: " + resource + " is not on the class path");
                }
                Files.write(file, in.readAllBytes());
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot prepare work directory " + file.getParent(), e);
        }
        return file;
    }

    /**
     * The command that runs the {@code streamgrid} CLI in a JVM of its own — {@code jvmOptions}
     * from {@link #writeJvmOptions}, this JVM's class path — for tests that start processes their
     * own way (inside a network namespace, say). {@code marker} (may be null) goes first.
     */
    public static List<String> cliCommand(final Path jvmOptions, final String heap, final String classPath,
                                          final String marker, final List<String> args) {
        return javaCommand(jvmOptions, heap, classPath, marker, MAIN_CLASS, args);
    }

    /** As {@link #cliCommand}, for any main class on the class path. */
    public static List<String> javaCommand(final Path jvmOptions, final String heap, final String classPath,
                                           final String marker, final String mainClass, final List<String> args) {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        if (marker != null) {
            // First on the command line, so that a reader of a truncated command line still sees it.
            command.add(marker);
        }
        command.add("@" + jvmOptions);
        command.add("-Xmx" + heap);
        command.add("-Xms" + heap);
        command.add("-cp");
        command.add(classPath);
        command.add(mainClass);
        command.addAll(args);
        return command;
    }

    private MemberProcess launch(final int port, final String memberList, final Map<String, String> environment) {
        final int index = nextIndex++;
        final Path dataDir = spec.workDir.resolve("member-" + index);
        final Path logFile = spec.workDir.resolve("member-" + index + ".log");
        final List<String> command = cliCommand(jvmOptionsFile, spec.memberHeap, spec.classPath,
                MEMBER_MARKER + spec.clusterName + ":" + port, List.of("node"));
        if (memberJvmOptionsFile != null) {
            // After jvm.options: its flags come second and win where both set one.
            command.add(command.indexOf("@" + jvmOptionsFile) + 1, "@" + memberJvmOptionsFile);
        }
        command.add("--cluster-name=" + spec.clusterName);
        command.add("--host=" + HOST);
        command.add("--port=" + port);
        command.add("--members=" + memberList);
        command.add("--data-dir=" + dataDir);
        // With a base port the default (member port + 1000) is predictable; random member ports get a free one.
        final int metricsPort = spec.basePort == 0 ? freePort(chosenPorts) : port + 1000;
        chosenPorts.add(metricsPort);
        command.add("--metrics-port=" + metricsPort);
        if (spec.configFile != null) {
            command.add("--config=" + spec.configFile.toAbsolutePath());
        }
        if (!spec.detached) {
            command.add("--parent-pid=" + ProcessHandle.current().pid());
        }
        try {
            Files.createDirectories(dataDir);
            final ProcessBuilder builder = new ProcessBuilder(command);
            builder.environment().putAll(environment);
            final Process process = builder
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile()))
                    .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                    .start();
            return new MemberProcess(index, HOST, port, metricsPort, process, logFile);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot start member JVM: " + String.join(" ", command), e);
        }
    }

    private void requireMember(final MemberProcess member) {
        if (!members.contains(member)) {
            throw new IllegalArgumentException(member + " is not a live member of " + spec.clusterName);
        }
    }

    /**
     * The next member's port: with a base port, the first of base, base+1, ... not taken by this
     * cluster (an error if someone else holds it); otherwise a random free one.
     */
    private int nextPort(final List<Integer> taken) {
        if (spec.basePort == 0) {
            final List<Integer> notThese = new ArrayList<>(taken);
            notThese.addAll(chosenPorts);
            final int port = freePort(notThese);
            chosenPorts.add(port);
            return port;
        }
        int port = spec.basePort;
        while (taken.contains(port)) {
            port++;
        }
        if (!isFree(port)) {
            throw new IllegalStateException("port " + port + " on " + HOST + " is in use: stop what holds it or choose another base port");
        }
        return port;
    }

    private static boolean isFree(final int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName(HOST))) {
            socket.setReuseAddress(true);
            return true;
        } catch (final IOException busy) {
            return false;
        }
    }

    /**
     * A loopback port that is free now, outside the ephemeral range that outgoing connections use:
     * for members started in-process (benchmarks) the same way as for member processes.
     */
    public static int freePort() {
        return freePort(List.of());
    }

    private static int freePort(final List<Integer> taken) {
        for (int attempt = 0; attempt < 200; attempt++) {
            final int candidate = ThreadLocalRandom.current().nextInt(20_000, 30_000);
            if (!taken.contains(candidate) && isFree(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("no free TCP port found in 20000-29999 on " + HOST);
    }

    private static void sleep(final long millis) {
        try {
            Thread.sleep(millis);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the cluster", e);
        }
    }

    /** How to start a {@link LocalCluster}; every setting has a default. */
    public static final class Builder {
        private int initialMembers = 2;
        private String clusterName = "sg-" + UUID.randomUUID().toString().substring(0, 8);
        private Path workDir;
        private String memberHeap = "384m";
        private int basePort;
        private String classPath = System.getProperty("java.class.path");
        private boolean detached;
        private boolean longLived;
        private Path configFile;
        private Duration startTimeout = Duration.ofMinutes(3);
        private Duration gracefulStopTimeout = Duration.ofMinutes(5);
        private Consumer<String> progress = line -> System.out.println("[LocalCluster] " + line);

        private Builder() {
        }

        /** A YAML configuration every member starts with ({@code --config}); the builder's own settings still apply. */
        public Builder configFile(final Path file) {
            this.configFile = file;
            return this;
        }

        public Builder members(final int count) {
            if (count < 1) {
                throw new IllegalArgumentException("members must be at least 1, was " + count);
            }
            this.initialMembers = count;
            return this;
        }

        /** Default: a random name, so clusters of concurrent runs never merge. */
        public Builder clusterName(final String name) {
            this.clusterName = name;
            return this;
        }

        /** Where member logs and data directories go. Required. */
        public Builder workDir(final Path dir) {
            this.workDir = dir;
            return this;
        }

        /** -Xmx and -Xms of each member, e.g. "384m" (the default). */
        public Builder memberHeap(final String heap) {
            this.memberHeap = heap;
            return this;
        }

        /** Ports base, base+1, ... for the members; 0 (the default) picks random free ports. */
        public Builder basePort(final int port) {
            if (port < 0 || port > 65_000) {
                throw new IllegalArgumentException("basePort must be 0 (random) or a port up to 65000, was " + port);
            }
            this.basePort = port;
            return this;
        }

        /** The members' class path; default: this JVM's. */
        public Builder classPath(final String classPath) {
            this.classPath = classPath;
            return this;
        }

        /** Members outlive this JVM: no shutdown hook, no parent watch. For `cluster start`. */
        public Builder detached() {
            this.detached = true;
            return this;
        }

        /**
         * Members are meant to run long (an operator's cluster, a benchmark): they also get
         * etc/member-jvm.options (heap pre-touched at start, which costs seconds per GB here — why
         * tests' short-lived members do without).
         */
        public Builder longLivedMembers() {
            this.longLived = true;
            return this;
        }

        public Builder startTimeout(final Duration timeout) {
            this.startTimeout = timeout;
            return this;
        }

        /** Where progress lines go; default: standard output. */
        public Builder progress(final Consumer<String> sink) {
            this.progress = sink;
            return this;
        }

        /**
         * Starts the members and returns once the cluster is safe. On failure every member
         * started so far is killed before the exception propagates.
         */
        public LocalCluster start() {
            if (workDir == null) {
                throw new IllegalArgumentException("workDir is required: where member logs and data go");
            }
            final LocalCluster cluster = new LocalCluster(this);
            try {
                return cluster.startAll();
            } catch (final RuntimeException e) {
                cluster.close();
                throw e;
            }
        }
    }
}
