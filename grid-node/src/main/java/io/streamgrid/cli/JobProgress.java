package io.streamgrid.cli;

import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.JobStatus;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * A demo's view of its job while events come: every 2 s the events it has applied (as the demo
 * counts them in its results) of those it will get, and its status; and, polling the status every
 * 100 ms, when the job was RUNNING again after it last was not (a restart after a member's kill).
 * Its own daemon thread, from {@link #start()} to {@link #stop()}.
 */
public final class JobProgress {
    private static final long STATUS_EVERY_MS = 100;
    private static final long PRINT_EVERY_MS = 2_000;

    private final PrintWriter out;
    private final Job job;
    private final long total;
    private final Callable<Long> applied;
    private final Thread thread;
    private volatile long runningAgainNanos;

    /** {@code applied}: how many of the {@code total} events the job's results account for now. */
    public JobProgress(final PrintWriter out, final Job job, final long total, final Callable<Long> applied) {
        this.out = out;
        this.job = job;
        this.total = total;
        this.applied = applied;
        this.thread = new Thread(this::watch, "demo-job-progress");
        thread.setDaemon(true);
    }

    public void start() {
        thread.start();
    }

    /** Stops watching and waits for the thread to end. */
    public void stop() throws InterruptedException {
        thread.interrupt();
        thread.join(5_000);
    }

    /** When (System.nanoTime) the job was last seen RUNNING again after not running; 0 when it never stopped. */
    public long runningAgainNanos() {
        return runningAgainNanos;
    }

    private void watch() {
        final long start = System.nanoTime();
        long nextPrint = start;
        boolean wasDown = false;
        try {
            while (!Thread.currentThread().isInterrupted()) {
                final JobStatus status = job.getStatus();
                if (status != JobStatus.RUNNING) {
                    wasDown = true;
                } else if (wasDown) {
                    runningAgainNanos = System.nanoTime();
                    wasDown = false;
                }
                if (System.nanoTime() >= nextPrint) {
                    final long done = applied.call();
                    out.printf("   job %s: %,d of %,d applied (%.0f s)%n", status, done, total, (System.nanoTime() - start) / 1e9);
                    out.flush();
                    nextPrint += TimeUnit.MILLISECONDS.toNanos(PRINT_EVERY_MS);
                    if (done >= total) {
                        return;
                    }
                }
                Thread.sleep(STATUS_EVERY_MS);
            }
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (final Exception e) {
            out.println("   (the job's progress could not be read: " + e.getMessage() + ")");
        }
    }
}
