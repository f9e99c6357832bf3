package io.streamgrid.cli;

import java.util.concurrent.CountDownLatch;

/** A development server the CLI runs in the foreground ({@code streamgrid cassandra}, {@code streamgrid kafka}). */
final class Foreground {
    private Foreground() {
    }

    /** Blocks until the JVM is asked to stop (Ctrl-C, SIGTERM); then closes {@code server}, which stops its process by PID. */
    static void runUntilStopped(final AutoCloseable server, final String name) throws InterruptedException {
        final CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                server.close();
            } catch (final Exception e) {
                System.err.println("stopping " + name + " failed: " + e);
            } finally {
                stopped.countDown();
            }
        }, name + "-stop"));
        stopped.await();
    }
}
