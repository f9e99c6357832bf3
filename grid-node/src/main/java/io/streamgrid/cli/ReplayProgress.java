package io.streamgrid.cli;

import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.JobStatus;
import io.streamgrid.jobs.ingest.Progress;
import io.streamgrid.node.impl.JobFigures;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;

/**
 * Follows a replay until it has caught up with its logs, with a progress line each time Jet
 * collects the job's metrics (every few seconds): the share of the records its logs held at
 * submission that it has read, its rate in events per second, the time left, the records behind.
 * The measure is the job's records behind ({@code streamgridRecordsBehind}: what is in its log
 * partitions after the last record read), so it holds across restarts from a snapshot, and records
 * appended while it runs make the time left longer, as they should.
 *
 * <p>Caught up: in two collections running, no more records behind than it reads in a second, or
 * than one per log partition (a heartbeat the live job has just appended to an idle partition).
 * Two, because the first collection after the start can miss processors that have not published
 * yet. A replay that fails, is suspended or is cancelled ends the following with exit 1; one of which the
 * cluster reports no metrics for a minute (metrics collection turned off) is left to run, with a
 * line saying so.
 */
final class ReplayProgress {
    /** Jet collects metrics every few seconds; none after this long means it will not. */
    private static final long NO_METRICS_NANOS = TimeUnit.SECONDS.toNanos(60);
    private final Job job;
    private final long recordsAtStart;
    private final int partitions;
    private final Progress progress;
    private final PrintWriter out;
    private final PrintWriter err;
    private final long pollMs;

    /**
     * @param recordsAtStart the records in the job's logs when it was submitted
     * @param partitions     the partitions of its logs, all logs together
     * @param progress       started at the submission
     */
    ReplayProgress(final Job job, final long recordsAtStart, final int partitions, final Progress progress, final PrintWriter out,
                   final PrintWriter err, final long pollMs) {
        this.job = job;
        this.recordsAtStart = recordsAtStart;
        this.partitions = partitions;
        this.progress = progress;
        this.out = out;
        this.err = err;
        this.pollMs = pollMs;
    }

    /**
     * Prints progress until the replay has caught up (0); failed, suspended or cancelled (1); sent
     * no metrics for a minute (0, said on the error stream); or the thread was interrupted (0).
     */
    int follow() {
        final long startNanos = System.nanoTime();
        JobFigures last = null;
        int caughtUpCollections = 0;
        while (true) {
            final JobStatus status = job.getStatus();
            if (status.isTerminal()) {
                err.println("replay " + job.getName() + " " + status + (status == JobStatus.FAILED ? ": " + failure() : "")
                        + " before it caught up with its logs");
                err.flush();
                return 1;
            }
            final String suspension = status == JobStatus.SUSPENDED ? suspensionCause() : null;
            if (suspension != null) {
                err.println("replay " + job.getName() + " is SUSPENDED (" + suspension + ") before it caught up with its logs: "
                        + "resume it with 'streamgrid job resume " + job.getName() + "'");
                err.flush();
                return 1;
            }
            final JobFigures figures = status == JobStatus.RUNNING ? JobFigures.of(job) : null;
            if (last == null && figures == null && System.nanoTime() - startNanos > NO_METRICS_NANOS) {
                err.println("replay " + job.getName() + " is " + status + " but the cluster has reported no metrics of it for "
                        + TimeUnit.NANOSECONDS.toSeconds(NO_METRICS_NANOS) + " s (metrics collection off?): not following "
                        + "it; the replay goes on ('streamgrid job list' shows it)");
                err.flush();
                return 0;
            }
            if (figures != null && (last == null || figures.collectedAtMs() > last.collectedAtMs())) {
                final double rate = last == null ? 0 : figures.eventsPerSecondSince(last);
                final long behind = figures.recordsBehind();
                final long done = Math.max(0, recordsAtStart - behind);
                out.printf(Locale.ROOT, "replay %s: %s (%,d records behind)%n", job.getName(),
                        progress.of(figures.eventsIn(), done, recordsAtStart), behind);
                out.flush();
                caughtUpCollections = behind <= Math.max(rate, partitions) ? caughtUpCollections + 1 : 0;
                if (caughtUpCollections == 2) {
                    out.printf(Locale.ROOT, "replay %s caught up with its logs (%,d records when it started) in %.0f s; it goes on "
                                    + "following them beside the live job: stop it with 'streamgrid job cancel %s'%n", job.getName(),
                            recordsAtStart, (System.nanoTime() - startNanos) / 1e9, job.getName());
                    out.flush();
                    return 0;
                }
                last = figures;
            }
            try {
                TimeUnit.MILLISECONDS.sleep(pollMs);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                return 0;
            }
        }
    }

    /** Why the job is suspended, or null when Jet no longer says it is (resumed meanwhile: look again after the pause). */
    private String suspensionCause() {
        try {
            return JobLifecycleCommands.suspensionCause(job);
        } catch (final IllegalStateException resumedMeanwhile) {
            return null;
        }
    }

    /** Why the job failed, as Jet reports it. */
    private String failure() {
        try {
            job.getFuture().join();
            return "no reason given";
        } catch (final CompletionException e) {
            final Throwable cause = e.getCause() != null ? e.getCause() : e;
            return String.valueOf(cause.getMessage());
        } catch (final RuntimeException e) {
            return String.valueOf(e.getMessage());
        }
    }
}
