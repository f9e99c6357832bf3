package io.streamgrid.jobs;

import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.JobStatus;
import io.streamgrid.jobs.event.EventRecord;
import io.streamgrid.jobs.ingest.EventGenerator;
import io.streamgrid.jobs.ingest.GeneratorSpec;
import io.streamgrid.jobs.ingest.IngestLog;
import io.streamgrid.jobs.window.WindowOracle;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.awaitility.Awaitility.await;

/** Pieces the multi-process job tests share: a paced ingest writer and a job-restart counter. */
final class Scenario {
    private Scenario() {
    }

    /** The brute-force windows of {@code spec}'s events, as a job over {@code partitions} partitions sees them. */
    static WindowOracle.Result oracle(final GeneratorSpec spec, final int partitions, final long size, final long slide,
                                      final long disorder, final long lateness) {
        final List<WindowOracle.Event> events = new ArrayList<>((int) spec.events());
        new EventGenerator(spec).generate(r -> events.add(new WindowOracle.Event(
                IngestLog.partitionOf(r.key(), partitions), r.key(), r.timestamp(), r.sequence(), null)));
        return WindowOracle.sliding(events, size, slide, disorder, lateness);
    }

    /** A thread appending {@code spec}'s events over about {@code seconds}, counting into {@code appended}. */
    static final class PacedWriter extends Thread {
        final AtomicLong appended = new AtomicLong();
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final GeneratorSpec spec;
        private final IngestLog log;
        private final long seconds;

        PacedWriter(final GeneratorSpec spec, final IngestLog log, final long seconds) {
            super("ingest-writer");
            this.spec = spec;
            this.log = log;
            this.seconds = seconds;
        }

        @Override
        public void run() {
            try {
                final long batch = Math.max(1, spec.events() / 200);
                final long start = System.nanoTime();
                new EventGenerator(spec).generate((EventRecord record) -> {
                    log.append(record);
                    final long count = appended.incrementAndGet();
                    if (count % batch == 0) {
                        final long due = start + TimeUnit.SECONDS.toNanos(seconds) * count / spec.events();
                        sleepNanos(due - System.nanoTime());
                    }
                });
            } catch (final Throwable t) {
                failure.set(t);
            }
        }

        /** Waits for the writer; rethrows what made it fail. */
        void finish() throws InterruptedException {
            join();
            if (failure.get() != null) {
                throw new AssertionError("ingest writer failed", failure.get());
            }
        }

        void awaitAppended(final long events) {
            await().atMost(Duration.ofMinutes(2)).until(() -> appended.get() >= events);
        }

        private static void sleepNanos(final long nanos) {
            if (nanos <= 0) {
                return;
            }
            try {
                TimeUnit.NANOSECONDS.sleep(nanos);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted", e);
            }
        }
    }

    /**
     * Counts the times a job leaves RUNNING by polling every 10 ms, not by a status listener: a
     * listener dies with the member it was registered on.
     */
    static final class RestartCounter extends Thread {
        final AtomicLong restarts = new AtomicLong();
        private final Job job;

        RestartCounter(final Job job) {
            super("job-status-watch");
            this.job = job;
            setDaemon(true);
        }

        @Override
        public void run() {
            JobStatus previous = JobStatus.RUNNING;
            while (!isInterrupted()) {
                try {
                    final JobStatus now = job.getStatus();
                    if (previous == JobStatus.RUNNING && now != JobStatus.RUNNING) {
                        restarts.incrementAndGet();
                    }
                    previous = now;
                    Thread.sleep(10);
                } catch (final InterruptedException e) {
                    return;
                } catch (final RuntimeException coordinatorGoneMidCall) {
                    previous = JobStatus.NOT_RUNNING; // the job is restarting on another coordinator
                }
            }
        }
    }
}
