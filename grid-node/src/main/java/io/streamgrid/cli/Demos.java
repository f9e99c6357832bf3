package io.streamgrid.cli;

import io.streamgrid.cluster.LocalCluster;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * What the demos share — {@code streamgrid demo} and the demos a {@link CliPlugin} adds (the examples
 * module's): emptying a work directory ({@link DemoWorkDir} is a demo's own), appending with a
 * member killed halfway, and waiting for results that never waits silently.
 */
public final class Demos {
    private Demos() {
    }

    public static void deleteRecursively(final Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (final Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    /** How long a demo waits for its results to converge before it reports what differs. */
    public static final Duration RESULTS_WAIT = Duration.ofSeconds(120);
    private static final Duration PROGRESS_EVERY = Duration.ofSeconds(15);

    /**
     * Reads a demo's results every 500 ms until {@code done} holds for them or {@link #RESULTS_WAIT}
     * has passed; returns the last reading (the caller reports what differs if it never converged).
     * Never waits silently: every 15 s it prints that it is still waiting for {@code what}, and a read
     * that itself does not return by the deadline (a cluster that stopped answering) ends the wait with
     * an {@link IllegalStateException} naming {@code what}, instead of blocking for ever.
     */
    public static <T> T readUntil(final PrintWriter out, final String what, final Callable<T> read, final Predicate<T> done)
            throws Exception {
        return readUntil(out, what, RESULTS_WAIT, PROGRESS_EVERY, read, done);
    }

    /** {@link #readUntil(PrintWriter, String, Callable, Predicate)} with its wait and progress period given. */
    public static <T> T readUntil(final PrintWriter out, final String what, final Duration wait, final Duration progressEvery,
                           final Callable<T> read, final Predicate<T> done) throws Exception {
        final long start = System.nanoTime();
        final long deadline = start + wait.toNanos();
        long nextProgress = start + progressEvery.toNanos();
        // Reads run on their own daemon thread so that a read blocked inside the client (a partition whose
        // owner never answers) cannot hold the demo past its deadline.
        final ExecutorService reader = Executors.newSingleThreadExecutor(runnable -> {
            final Thread thread = new Thread(runnable, "demo-results-reader");
            thread.setDaemon(true);
            return thread;
        });
        try {
            T last;
            do {
                TimeUnit.MILLISECONDS.sleep(500);
                final Future<T> reading = reader.submit(read);
                try {
                    last = reading.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
                } catch (TimeoutException e) {
                    reading.cancel(true);
                    throw new IllegalStateException("gave up waiting for " + what + " after " + wait.toSeconds()
                            + " s: the cluster did not answer a read of the results (see the members' logs)");
                } catch (ExecutionException e) {
                    throw e.getCause() instanceof Exception cause ? cause : e;
                }
                final long now = System.nanoTime();
                if (now >= nextProgress && !done.test(last)) {
                    out.println("   still waiting for " + what + " (" + TimeUnit.NANOSECONDS.toSeconds(now - start)
                            + " s of at most " + wait.toSeconds() + ")");
                    out.flush();
                    nextProgress = now + progressEvery.toNanos();
                }
            } while (!done.test(last) && System.nanoTime() < deadline);
            if (!done.test(last)) {
                out.println("   gave up waiting for " + what + " after " + wait.toSeconds() + " s: what follows is what the cluster"
                        + " held then (the members' logs say what held the job up)");
            }
            return last;
        } finally {
            reader.shutdownNow();
        }
    }

    /** Appends records {@code from} (inclusive) to {@code to} (exclusive) to a demo's log(s). */
    public interface Appender {
        void append(int from, int to);
    }

    /**
     * Appends a demo's {@code total} records in batches of 1,000 spread over about 15 s, and kills
     * member 2 with SIGKILL halfway (the job restarts from its last snapshot), saying so.
     */
    public static Kill appendKillingMidway(final LocalCluster cluster, final PrintWriter out, final int total, final String what,
                                    final Appender appender) throws InterruptedException {
        final int batch = 1_000;
        final long start = System.nanoTime();
        Kill kill = null;
        for (int i = 0; i < total; i += batch) {
            appender.append(i, Math.min(total, i + batch));
            if (i / batch == total / batch / 2) {
                cluster.kill(cluster.members().get(1));
                kill = new Kill(Math.min(total, i + batch), System.nanoTime());
                out.println("== killed member 2 (SIGKILL) after " + kill.afterRecords() + " " + what
                        + "; the job restarts from its last snapshot");
            }
            final long due = start + TimeUnit.SECONDS.toNanos(15) * (i + (long) batch) / total;
            TimeUnit.NANOSECONDS.sleep(Math.max(0, due - System.nanoTime()));
        }
        return kill;
    }

    /** When a demo killed a member: after its first {@code afterRecords} records were appended, at {@code nanoTime} (System.nanoTime). */
    public record Kill(int afterRecords, long nanoTime) {
    }
}
