package io.streamgrid.perf.bench;

import com.hazelcast.jet.JetService;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.JobStatus;
import io.streamgrid.perf.BenchContext;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/** Draining a backlog with a job and timing it, as the throughput benchmarks do. */
final class Drain {
    private Drain() {
    }

    /**
     * {@code warmUps} rounds of warm-up, then {@code runs} rounds with the subjects alternating, each
     * draining all {@code events}; returns events/s per subject and run ({@code [subject][run]}).
     * {@code unit} names what is counted in the progress lines (events, readings).
     */
    static double[][] alternating(final BenchContext context, final JetService jet, final List<String> labels,
                                  final List<Function<JetService, Job>> subjects, final List<ResultTally> tallies,
                                  final int events, final int warmUps, final int runs, final String unit)
            throws InterruptedException {
        warmUp(context, jet, labels, subjects, tallies, events, warmUps, unit);
        final double[][] rates = new double[subjects.size()][runs];
        for (int run = 0; run < runs; run++) {
            for (int s = 0; s < subjects.size(); s++) {
                rates[s][run] = drain(context, jet, subjects.get(s), events, events, tallies.get(s));
                context.progress(String.format(Locale.ROOT, "run %d/%d %s: %,.0f %s/s", run + 1, runs, labels.get(s),
                        rates[s][run], unit));
            }
        }
        return rates;
    }

    /** {@code rounds} rounds of the subjects in turn, each draining all {@code events}; the rates only printed. */
    static void warmUp(final BenchContext context, final JetService jet, final List<String> labels,
                       final List<Function<JetService, Job>> subjects, final List<ResultTally> tallies,
                       final int events, final int rounds, final String unit) throws InterruptedException {
        for (int round = 0; round < rounds; round++) {
            for (int s = 0; s < subjects.size(); s++) {
                final double rate = drain(context, jet, subjects.get(s), events, events, tallies.get(s));
                context.progress(String.format(Locale.ROOT, "warm-up %d/%d %s: %,.0f %s/s", round + 1, rounds,
                        labels.get(s), rate, unit));
            }
        }
    }

    /**
     * Submits a job, waits until its tally reaches the oracle's total, and returns events/s. The
     * tally must then stay there (nothing counted twice) for a moment, or the run fails.
     */
    static double drain(final BenchContext context, final JetService jet, final Function<JetService, Job> submit,
                                final int events, final long expectedTally, final ResultTally results)
            throws InterruptedException {
        results.reset();
        final LongAdder tally = results.tally;
        final long start = System.nanoTime();
        final Job job = submit.apply(jet);
        final long deadline = start + Duration.ofSeconds(120 + events / 20_000).toNanos();
        long nextReport = start + Duration.ofSeconds(10).toNanos();
        long firstResult = 0;
        try {
            long sum;
            while ((sum = tally.sum()) < expectedTally) {
                final long now = System.nanoTime();
                if (firstResult == 0 && sum > 0) {
                    firstResult = now;
                }
                if (now > deadline) {
                    throw new IllegalStateException(String.format(Locale.ROOT, "%s did not finish in time: %,d of %,d "
                            + "results tallied", job.getName(), sum, expectedTally));
                }
                if (job.getStatus() == JobStatus.FAILED) {
                    job.join(); // throws the job's failure
                }
                if (now > nextReport) {
                    context.progress(String.format(Locale.ROOT, "  %s: %.0f%% of the results so far", job.getName(),
                            100.0 * sum / expectedTally));
                    nextReport = now + Duration.ofSeconds(10).toNanos();
                }
                Thread.sleep(2);
            }
            final long elapsed = System.nanoTime() - start;
            Thread.sleep(300);
            if (tally.sum() != expectedTally) {
                throw new IllegalStateException(String.format(Locale.ROOT, "%s tallied %,d results, the oracle "
                        + "expects %,d: counted twice", job.getName(), tally.sum(), expectedTally));
            }
            context.progress(String.format(Locale.ROOT, "  %s: first result %.0f ms after submission, last "
                    + "after %.0f ms", job.getName(), (firstResult - start) / 1e6, elapsed / 1e6));
            return events / (elapsed / 1e9);
        } finally {
            cancelAndWait(job);
        }
    }

    static void cancelAndWait(final Job job) {
        try {
            job.cancel();
        } catch (final IllegalStateException alreadyEnded) {
            // Nothing to cancel: it has ended (and a failure was already thrown above).
        }
        try {
            job.join();
        } catch (final java.util.concurrent.CancellationException | com.hazelcast.jet.JetException expected) {
            // A cancelled job's join ends this way.
        }
    }
}
