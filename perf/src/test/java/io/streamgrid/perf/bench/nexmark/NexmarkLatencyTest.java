package io.streamgrid.perf.bench.nexmark;

import com.hazelcast.jet.JetService;
import io.streamgrid.nexmark.Bid;
import io.streamgrid.nexmark.NexmarkGenerator;
import io.streamgrid.nexmark.NexmarkQuery;
import io.streamgrid.nexmark.NexmarkReference;
import io.streamgrid.nexmark.PacedRun;
import io.streamgrid.nexmark.ResultFingerprint;
import io.streamgrid.perf.bench.EmbeddedGrid;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * StreamGrid's half of NEXMark's paced latency run: the events are released over their event time,
 * the result is still the reference's, and every row due within the measured span has a latency.
 */
class NexmarkLatencyTest {
    private static final long RATE = 20_000;
    private static final long BASE = 1_700_000_000_000L;
    private static final long WARM_UP_MS = 1_000;

    @TempDir
    Path dir;

    @Test
    void when_Q1RunsPaced_then_itTakesTheInputsEventTimeAndEveryMeasuredBidHasALatency() {
        final NexmarkSetup setup = new NexmarkSetup(3, RATE, BASE, 0, 2);
        final NexmarkGenerator generator = setup.generator();
        final long events = 3 * RATE;
        final long lastEventMs = generator.timeOf(events - 1);
        final PacedRun paced = new PacedRun(BASE, WARM_UP_MS, lastEventMs);
        final ResultFingerprint expected = NexmarkReference.run(NexmarkQuery.Q1, generator, events);
        long measuredBids = 0;
        for (long n = 0; n < events; n++) {
            if (generator.event(n) instanceof Bid && generator.timeOf(n) >= BASE + WARM_UP_MS) {
                measuredBids++;
            }
        }
        try (EmbeddedGrid grid = EmbeddedGrid.start(dir.resolve("member"))) {
            final JetService jet = grid.member().getJet();
            final long start = System.nanoTime();
            final InJvmRun run = NexmarkLatency.streamGrid(jet, StreamGridQueries.jobs(NexmarkQuery.Q1).orElseThrow(), setup, events,
                    paced, expected, dir.resolve("ingest"));
            final long elapsedMs = (System.nanoTime() - start) / 1_000_000;

            assertThat(run.result()).isEqualTo(expected);
            assertThat(elapsedMs).as("the run's wall time against its event time").isGreaterThanOrEqualTo(lastEventMs - BASE);
            final Histogram latencies = paced.latencies();
            assertThat(latencies.getTotalCount()).as("bids with a latency").isEqualTo(measuredBids);
            assertThat(latencies.getValueAtPercentile(50)).as("median latency, ns").isLessThan(1_000_000_000L);
        }
    }

    @Test
    void when_aWindowQueryRunsPaced_then_onlyWindowsEndingWithinTheInputAreMeasured() {
        final NexmarkSetup setup = new NexmarkSetup(3, RATE, BASE, 0, 2);
        final NexmarkGenerator generator = setup.generator();
        final long events = 12 * RATE; // 12 s of event time: a window ends at 10 s, the next (20 s) is flushed by the end
        final PacedRun paced = new PacedRun(BASE, WARM_UP_MS, generator.timeOf(events - 1));
        final ResultFingerprint expected = NexmarkReference.run(NexmarkQuery.Q7, generator, events);
        try (EmbeddedGrid grid = EmbeddedGrid.start(dir.resolve("member"))) {
            final InJvmRun run = NexmarkLatency.streamGrid(grid.member().getJet(), StreamGridQueries.jobs(NexmarkQuery.Q7).orElseThrow(),
                    setup, events, paced, expected, dir.resolve("ingest"));

            assertThat(run.result()).isEqualTo(expected);
            final long windowsWithin = (generator.timeOf(events - 1) - BASE) / NexmarkQuery.WINDOW_MS;
            // a window's rows are its highest bids: one each but for ties
            assertThat(paced.latencies().getTotalCount()).as("rows of the %d windows that ended within the input", windowsWithin)
                    .isBetween(windowsWithin, run.result().rows() - 1);
        }
    }
}
