package io.streamgrid.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.UUID;
import java.util.function.Consumer;

/** How to start a {@link LocalCluster} ({@link LocalCluster#builder()}); every setting has a default. */
public final class LocalClusterBuilder {
    int initialMembers = 2;
    String clusterName = "sg-" + UUID.randomUUID().toString().substring(0, 8);
    Path workDir;
    String memberHeap = "384m";
    int basePort;
    String classPath = System.getProperty("java.class.path");
    boolean detached;
    boolean longLived;
    Path configFile;
    Duration startTimeout = Duration.ofMinutes(3);
    Duration gracefulStopTimeout = Duration.ofMinutes(5);
    Consumer<String> progress = line -> System.out.println("[LocalCluster] " + line);

    LocalClusterBuilder() {
    }

    /** A YAML configuration every member starts with ({@code --config}); the builder's own settings still apply. */
    public LocalClusterBuilder configFile(final Path file) {
        this.configFile = file;
        return this;
    }

    public LocalClusterBuilder members(final int count) {
        if (count < 1) {
            throw new IllegalArgumentException("members must be at least 1, was " + count);
        }
        this.initialMembers = count;
        return this;
    }

    /** Default: a random name, so clusters of concurrent runs never merge. */
    public LocalClusterBuilder clusterName(final String name) {
        this.clusterName = name;
        return this;
    }

    /** Where member logs and data directories go. Required. */
    public LocalClusterBuilder workDir(final Path dir) {
        this.workDir = dir;
        return this;
    }

    /** -Xmx and -Xms of each member, e.g. "384m" (the default). */
    public LocalClusterBuilder memberHeap(final String heap) {
        this.memberHeap = heap;
        return this;
    }

    /** Ports base, base+1, ... for the members; 0 (the default) picks random free ports. */
    public LocalClusterBuilder basePort(final int port) {
        if (port < 0 || port > 65_000) {
            throw new IllegalArgumentException("basePort must be 0 (random) or a port up to 65000, was " + port);
        }
        this.basePort = port;
        return this;
    }

    /** The members' class path; default: this JVM's. */
    public LocalClusterBuilder classPath(final String classPath) {
        this.classPath = classPath;
        return this;
    }

    /** Members outlive this JVM: no shutdown hook, no parent watch. For `cluster start`. */
    public LocalClusterBuilder detached() {
        this.detached = true;
        return this;
    }

    /**
     * Members are meant to run long (an operator's cluster, a benchmark): they also get
     * etc/member-jvm.options (heap pre-touched at start, which costs seconds per GB here — why
     * tests' short-lived members do without).
     */
    public LocalClusterBuilder longLivedMembers() {
        this.longLived = true;
        return this;
    }

    public LocalClusterBuilder startTimeout(final Duration timeout) {
        this.startTimeout = timeout;
        return this;
    }

    /** Where progress lines go; default: standard output. */
    public LocalClusterBuilder progress(final Consumer<String> sink) {
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
        final LocalCluster cluster = launch();
        try {
            return cluster.awaitStarted();
        } catch (final RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    /**
     * Starts the members and returns at once, before they have formed a cluster or loaded their
     * persisted state; {@link LocalCluster#awaitSafe} waits for that.
     */
    public LocalCluster launch() {
        if (workDir == null) {
            throw new IllegalArgumentException("workDir is required: where member logs and data go");
        }
        final LocalCluster cluster = new LocalCluster(this);
        try {
            return cluster.launchAll();
        } catch (final RuntimeException e) {
            cluster.close();
            throw e;
        }
    }
}
