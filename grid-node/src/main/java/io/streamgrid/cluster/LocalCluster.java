package io.streamgrid.cluster;

import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastInstance;
import io.streamgrid.client.ClientSettings;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
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
 * after a SIGKILL). A {@linkplain LocalClusterBuilder#detached() detached} cluster skips all three, for
 * {@code streamgrid cluster start}, whose members must outlive the command.
 */
public final class LocalCluster implements AutoCloseable {
    static final String HOST = LoopbackPorts.HOST;
    /** Marks a member JVM's command line: {@code -Dstreamgrid.member=<cluster>:<port>}. */
    static final String MEMBER_MARKER = "-Dstreamgrid.member=";

    private final LocalClusterBuilder spec;
    private final Path jvmOptionsFile;
    /** etc/member-jvm.options in the work directory, for {@linkplain LocalClusterBuilder#longLivedMembers() long-lived} members; else null. */
    private final Path memberJvmOptionsFile;
    private final List<MemberProcess> members = new CopyOnWriteArrayList<>();
    private final List<HazelcastInstance> clients = new CopyOnWriteArrayList<>();
    private final Thread shutdownHook;
    private int nextIndex = 1;
    /** Every port this cluster chose (members' and metrics'), so that none is chosen twice before it is bound. */
    private final List<Integer> chosenPorts = new CopyOnWriteArrayList<>();

    LocalCluster(final LocalClusterBuilder spec) {
        this.spec = spec;
        this.jvmOptionsFile = JvmCommands.writeJvmOptions(spec.workDir);
        this.memberJvmOptionsFile = spec.longLived
                ? JvmCommands.writeMemberJvmOptions(spec.workDir.resolve("member-jvm.options")) : null;
        this.shutdownHook = spec.detached ? null : new Thread(this::killAll, "local-cluster-cleanup");
        if (shutdownHook != null) {
            Runtime.getRuntime().addShutdownHook(shutdownHook);
        }
    }

    public static LocalClusterBuilder builder() {
        return new LocalClusterBuilder();
    }

    /** Waits until the members {@link #launchAll} started form a safe cluster. */
    LocalCluster awaitStarted() {
        final Duration took = awaitSafe(spec.initialMembers, spec.startTimeout);
        spec.progress.accept("cluster of " + spec.initialMembers + " members is safe after " + took.toMillis() + " ms");
        return this;
    }

    /** Starts the configured number of members and returns at once. */
    LocalCluster launchAll() {
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
        final MemberProcess member = launchMember(environment);
        spec.progress.accept("added " + member + "; waiting for migration");
        final Duration took = awaitSafe(members.size(), spec.startTimeout);
        spec.progress.accept("cluster of " + members.size() + " members is safe, " + took.toMillis() + " ms after start of " + member);
        return member;
    }

    /**
     * Starts one more member and returns it at once, before it has joined (what happens while a
     * member joins: {@link #awaitSafe} waits for the end).
     */
    public MemberProcess launchMember(final Map<String, String> environment) {
        final List<Integer> taken = members.stream().map(MemberProcess::port).collect(Collectors.toList());
        final int port = nextPort(taken);
        final String memberList = members.stream().map(MemberProcess::address).collect(Collectors.joining(","))
                + (members.isEmpty() ? "" : ",") + HOST + ":" + port;
        final MemberProcess member = launch(port, memberList, environment);
        members.add(member);
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

    private MemberProcess launch(final int port, final String memberList, final Map<String, String> environment) {
        final int index = nextIndex++;
        final Path dataDir = spec.workDir.resolve("member-" + index);
        final Path logFile = spec.workDir.resolve("member-" + index + ".log");
        final List<String> command = JvmCommands.cliCommand(jvmOptionsFile, spec.memberHeap, spec.classPath,
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
        final int metricsPort = spec.basePort == 0 ? LoopbackPorts.freePort(chosenPorts) : port + 1000;
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
            final int port = LoopbackPorts.freePort(notThese);
            chosenPorts.add(port);
            return port;
        }
        int port = spec.basePort;
        while (taken.contains(port)) {
            port++;
        }
        if (!LoopbackPorts.isFree(port)) {
            throw new IllegalStateException("port " + port + " on " + HOST + " is in use: stop what holds it or choose another base port");
        }
        return port;
    }

    private static void sleep(final long millis) {
        try {
            Thread.sleep(millis);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the cluster", e);
        }
    }
}
