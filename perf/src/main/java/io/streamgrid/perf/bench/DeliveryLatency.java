package io.streamgrid.perf.bench;

import io.streamgrid.perf.BenchContext;
import io.streamgrid.perf.OpenLoop;
import io.streamgrid.perf.report.LatencyProfile;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.IntConsumer;

/**
 * Open-loop "append → delivered" latency, as the end-to-end latency benchmarks measure it: events
 * numbered 0, 1, 2, ... are appended at a fixed rate (each at its scheduled time, whatever the
 * previous one took), and a listener reports each event's number when its result reaches the
 * observer. Latency = delivery − the scheduled append time; the first delivery of a number counts;
 * numbers of the measured phase never delivered within the drain time are lost.
 */
final class DeliveryLatency {
    /** Appends event {@code index}. */
    interface Appender {
        void append(int index);
    }

    /** Starts reporting delivered event numbers to {@code delivered}; closing stops it. */
    interface Listening {
        AutoCloseable listen(IntConsumer delivered) throws Exception;
    }

    private DeliveryLatency() {
    }

    static LatencyProfile measure(final BenchContext context, final String label, final String unit, final int rate,
                                  final Duration warmUp, final Duration measured, final Duration drain, final Appender appender,
                                  final Listening listening) throws Exception {
        final int total = (int) (rate * (warmUp.toSeconds() + measured.toSeconds()) + rate);
        final AtomicLongArray scheduled = new AtomicLongArray(total);
        final AtomicIntegerArray delivered = new AtomicIntegerArray(total);
        final Recorder latency = new Recorder(3);
        final AtomicInteger firstMeasured = new AtomicInteger(Integer.MAX_VALUE);
        final int[] next = {0};
        try (AutoCloseable listener = listening.listen(index -> {
            if (index >= 0 && index < total && delivered.getAndSet(index, 1) == 0 && index >= firstMeasured.get()) {
                latency.recordValue(Math.max(0, System.nanoTime() - scheduled.get(index)));
            }
        })) {
            final OpenLoop.Operation append = (sequence, scheduledNanos) -> {
                final int index = next[0]++;
                scheduled.set(index, scheduledNanos);
                appender.append(index);
            };
            context.progress(label + ": warm-up " + warmUp.toSeconds() + " s at " + rate + " " + unit + "/s");
            OpenLoop.run(rate, warmUp, append, OpenLoop.newHistogram(), OpenLoop.Wait.PARK);
            firstMeasured.set(next[0]);
            latency.reset();
            context.progress(label + ": measuring " + measured.toSeconds() + " s");
            OpenLoop.run(rate, measured, append, OpenLoop.newHistogram(), OpenLoop.Wait.PARK);
            final int end = next[0];
            final long deadline = System.nanoTime() + drain.toNanos();
            while (missing(delivered, firstMeasured.get(), end) > 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            final int lost = missing(delivered, firstMeasured.get(), end);
            final Histogram histogram = latency.getIntervalHistogram();
            final LatencyProfile profile = LatencyProfile.ofNanos(label, String.format(Locale.ROOT, "%,d %s/s", rate, unit), rate,
                    histogram, lost);
            context.progress(String.format(Locale.ROOT, "%s: %d %s measured, %d delivered, %d lost; p50 %.0f µs, p99 %.0f µs, "
                            + "p99.9 %.0f µs", label, end - firstMeasured.get(), unit, histogram.getTotalCount(), lost, profile.p50Us(),
                    profile.p99Us(), profile.p999Us()));
            return profile;
        }
    }

    private static int missing(final AtomicIntegerArray delivered, final int from, final int to) {
        int missing = 0;
        for (int i = from; i < to; i++) {
            missing += 1 - delivered.get(i);
        }
        return missing;
    }
}
