package io.streamgrid.cluster;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A grid member running as a separate JVM on this host, started by {@link LocalCluster}.
 * Its standard output and error go to {@link #logFile()}.
 */
public final class MemberProcess {
    private final int index;
    private final String host;
    private final int port;
    private final int metricsPort;
    private final Process process;
    private final Path logFile;

    MemberProcess(final int index, final String host, final int port, final int metricsPort, final Process process,
                  final Path logFile) {
        this.index = index;
        this.host = host;
        this.port = port;
        this.metricsPort = metricsPort;
        this.process = process;
        this.logFile = logFile;
    }

    /** 1-based, in start order; never reused within one cluster. */
    public int index() {
        return index;
    }

    public int port() {
        return port;
    }

    public String address() {
        return host + ":" + port;
    }

    /** Where the member serves its Prometheus metrics (when its configuration leaves them on). */
    public String metricsUrl() {
        return "http://" + host + ":" + metricsPort + "/metrics";
    }

    public long pid() {
        return process.pid();
    }

    public Path logFile() {
        return logFile;
    }

    /** What the member has logged so far. @throws java.io.UncheckedIOException when the log cannot be read */
    public String log() {
        try {
            return java.nio.file.Files.readString(logFile);
        } catch (final java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    public Optional<MemberHealth> health() {
        return MemberHealth.probe(host, port);
    }

    /** Null when the member is ready (see {@link MemberHealth#notReady}), else why not. */
    public String notReady() {
        return MemberHealth.notReady(host, metricsPort);
    }

    /** SIGKILL to the process and anything it started; returns once it is gone. */
    void kill() {
        ProcessTree.kill(process.toHandle());
        waitForExit(Duration.ofSeconds(30));
    }

    /** SIGTERM, which makes the member shut down gracefully; false if still alive after the wait. */
    /** SIGTERM without waiting. */
    void terminate() {
        process.destroy();
    }

    boolean terminateAndWait(final Duration wait) {
        terminate();
        return waitForExit(wait);
    }

    /** Whether the process exited within {@code wait}. */
    boolean waitForExit(final Duration wait) {
        try {
            return process.waitFor(wait.toMillis(), TimeUnit.MILLISECONDS);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public String toString() {
        return "member-" + index + "@" + address() + " (pid " + pid() + ")";
    }
}
