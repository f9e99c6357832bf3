package io.streamgrid.sink;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * A server run as a child JVM of its own — Cassandra, a Kafka broker — with its output appended
 * to a log file: started with this JVM's {@code java}, stopped by its PID (SIGTERM, then SIGKILL
 * after 60 s), killed at once on request, and killed by a shutdown hook if its owner never stops
 * it. The servers' own jars stay on the child's class path only.
 */
public final class ChildJvm {
    private final String name;
    private final Path logFile;
    private final Consumer<String> progress;
    private final Thread shutdownHook;
    private Process process;

    /** {@code name}: how messages call it ("Cassandra"). */
    public ChildJvm(final String name, final Path logFile, final Consumer<String> progress) {
        this.name = name;
        this.logFile = logFile;
        this.progress = progress;
        this.shutdownHook = new Thread(this::killQuietly, name.toLowerCase(java.util.Locale.ROOT) + "-cleanup");
        Runtime.getRuntime().addShutdownHook(shutdownHook);
    }

    /** The {@code java} of this JVM, followed by {@code arguments}: a command for {@link #start}. */
    public static List<String> javaCommand(final List<String> arguments) {
        final List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(arguments);
        return command;
    }

    /** Starts {@code command}, output appended to the log file. @throws IllegalStateException when it runs already */
    public synchronized void start(final List<String> command) {
        if (process != null && process.isAlive()) {
            throw new IllegalStateException(name + " is already running (pid " + process.pid() + ")");
        }
        try {
            process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(logFile.toFile())).start();
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot start " + name + " (" + String.join(" ", command.subList(0, 1)) + ")", e);
        }
    }

    /** SIGTERM by PID; SIGKILL if it has not exited after 60 s. */
    public synchronized void stop() {
        if (process == null) {
            return;
        }
        process.destroy();
        try {
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                progress.accept(name + " did not stop within 60 s of SIGTERM: killing it (pid " + process.pid() + ")");
                process.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
        progress.accept(name + " stopped (pid " + process.pid() + ")");
        process = null;
    }

    /** SIGKILL by PID (and its children's), at once. */
    public synchronized void kill() {
        killQuietly();
        process = null;
    }

    private void killQuietly() {
        final Process running = process;
        if (running != null) {
            running.descendants().forEach(ProcessHandle::destroyForcibly);
            running.destroyForcibly();
            try {
                running.waitFor(30, TimeUnit.SECONDS);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /**
     * Waits up to {@code timeout} for a process that runs to its end by itself (a benchmark run) and
     * returns its exit code; kills it when it has not ended by then.
     *
     * @throws IllegalStateException when it was not started, or had to be killed (naming the log file)
     */
    public int awaitExit(final java.time.Duration timeout) throws InterruptedException {
        final Process running;
        synchronized (this) {
            running = process;
        }
        if (running == null) {
            throw new IllegalStateException(name + " was not started");
        }
        if (!running.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            kill();
            throw new IllegalStateException(name + " did not end within " + timeout.toSeconds() + " s: killed; see " + logFile);
        }
        return running.exitValue();
    }

    public synchronized boolean isRunning() {
        return process != null && process.isAlive();
    }

    /** @throws IllegalStateException naming the log file when the process has exited (or never started) */
    public synchronized void checkAlive(final String while_) {
        if (process == null) {
            throw new IllegalStateException(name + " is not running");
        }
        if (!process.isAlive()) {
            throw new IllegalStateException(name + " exited with code " + process.exitValue() + " " + while_ + "; see " + logFile);
        }
    }

    /** @throws IllegalStateException when it is not running */
    public synchronized long pid() {
        if (!isRunning()) {
            throw new IllegalStateException(name + " is not running");
        }
        return process.pid();
    }

    public Path logFile() {
        return logFile;
    }

    /** Stops it and removes the shutdown hook. */
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(shutdownHook);
        } catch (final IllegalStateException shuttingDown) {
            // the hook is running already
        }
    }

    /** Whether something accepts connections at {@code address} (within 500 ms). */
    public static boolean portOpen(final InetSocketAddress address) {
        try (Socket socket = new Socket()) {
            socket.connect(address, 500);
            return true;
        } catch (final IOException closed) {
            return false;
        }
    }

    /** A port of 30000-31999 free on {@code host} now, other than those in {@code not}. */
    public static int freePort(final String host, final int... not) {
        for (int attempt = 0; attempt < 200; attempt++) {
            final int candidate = ThreadLocalRandom.current().nextInt(30_000, 32_000);
            if (java.util.Arrays.stream(not).anyMatch(taken -> taken == candidate)) {
                continue;
            }
            try (ServerSocket socket = new ServerSocket(candidate, 1, InetAddress.getByName(host))) {
                return candidate;
            } catch (final IOException busy) {
                // try another
            }
        }
        throw new IllegalStateException("no free port in 30000-31999 on " + host);
    }

    /** Sleeps; an interrupt becomes an IllegalStateException naming what was awaited. */
    public static void sleep(final long millis, final String awaiting) {
        try {
            Thread.sleep(millis);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for " + awaiting, e);
        }
    }
}
