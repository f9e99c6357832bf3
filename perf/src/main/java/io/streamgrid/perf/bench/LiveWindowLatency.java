package io.streamgrid.perf.bench;

import com.hazelcast.jet.JetService;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.JobStatus;
import io.streamgrid.jobs.event.BuiltInEvents;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.perf.BenchContext;
import io.streamgrid.perf.report.LatencyProfile;
import org.HdrHistogram.Histogram;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.locks.LockSupport;

/** The latency phase of the windowing benchmarks: a windowed job over a live log, from each window's end to its result. */
final class LiveWindowLatency {
    private LiveWindowLatency() {
    }

    /**
     * Runs {@code job} over a live log that a writer fills at {@code rate} events/s, event time on the
     * wall clock; returns the latency of every window result measured: from the window's end to its
     * emission. The writer appends each millisecond's events when that millisecond has come (open
     * loop at millisecond grain); if the job falls behind, the latency shows it.
     */
    static LatencyProfile measure(final BenchContext context, final JetService jet, final WindowingBench.JobSubject job,
                                  final double rate, final Duration warmUp, final Duration measured)
            throws InterruptedException {
        final Path dir = context.workDir().resolve("live-" + WindowingBench.JOB_IDS.incrementAndGet());
        try (SchemaLog log = SchemaLog.open(WindowingBench.requestLog(dir), EventType.REQUEST.schema(), WindowingBench.PARTITIONS)) {
            job.tally().reset();
            ResultTally.startClock();
            final Job running = job.submit().apply(dir).apply(jet);
            try {
                context.progress(String.format(Locale.ROOT, "latency of %s at %,.0f events/s: %d s warm-up, %d s measured",
                        job.label(), rate, warmUp.toSeconds(), measured.toSeconds()));
                final SplittableRandom random = new SplittableRandom(42);
                final BuiltInEvents record = new BuiltInEvents();
                final long start = System.nanoTime();
                final long warmUpEnd = start + warmUp.toNanos();
                final long end = warmUpEnd + measured.toNanos();
                long written = 0;
                long now;
                while ((now = System.nanoTime()) < end) {
                    if (!job.tally().recording && now >= warmUpEnd) {
                        job.tally().latency.reset();
                        job.tally().recording = true;
                    }
                    final long due = (long) ((now - start) / 1e9 * rate);
                    final long timestamp = ResultTally.eventTimeMillis(now);
                    for (; written < due; written++) {
                        log.append(record.request(timestamp, written, 0x0A00_0000 + random.nextInt(WindowingBench.KEYS), 0x0A00_FFFF, 512, 200));
                    }
                    if (running.getStatus() == JobStatus.FAILED) {
                        running.join();
                    }
                    LockSupport.parkNanos(200_000);
                }
                job.tally().recording = false;
                final Histogram latency = job.tally().latency.getIntervalHistogram();
                final LatencyProfile profile = LatencyProfile.ofNanos(job.label(), "window end → result", rate, latency, 0);
                context.progress(String.format(Locale.ROOT, "  %,d results: p50 %.1f ms, p99 %.1f ms, p99.9 %.1f ms",
                        profile.count(), profile.p50Us() / 1e3, profile.p99Us() / 1e3, profile.p999Us() / 1e3));
                return profile;
            } finally {
                Drain.cancelAndWait(running);
            }
        }
    }
}
