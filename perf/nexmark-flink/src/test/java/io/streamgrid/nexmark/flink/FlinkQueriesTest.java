package io.streamgrid.nexmark.flink;

import io.streamgrid.nexmark.Bid;
import io.streamgrid.nexmark.NexmarkGenerator;
import io.streamgrid.nexmark.NexmarkQuery;
import io.streamgrid.nexmark.NexmarkReference;
import io.streamgrid.nexmark.PacedRun;
import io.streamgrid.nexmark.ResultFingerprint;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each NEXMark query in Flink against the reference implementation over the same small input:
 * the benchmark compares engines by their results, so Flink's must be right first. Event time moves
 * slowly (500 events per second) so that 40 s of it hold several windows, sessions and closed auctions.
 */
class FlinkQueriesTest {
    private static final long EVENTS = 20_000;

    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path checkpoints;

    @Test
    void when_eachQueryRunsInFlight_then_itsResultEqualsTheReferences() throws Exception {
        assertThat(queriesDifferingFromTheReference(List.of(NexmarkQuery.values()), "hashmap"))
                .as("queries whose Flink result differs from the reference's").isEmpty();
    }

    /** The RocksDB state backend (the benchmark's second Flink baseline) over the queries that keep state. */
    @Test
    void when_theStatefulQueriesRunOnRocksDb_then_theirResultsEqualTheReferences() throws Exception {
        final List<NexmarkQuery> stateful = Arrays.stream(NexmarkQuery.values()).filter(NexmarkQuery::keepsState).toList();
        assertThat(stateful).contains(NexmarkQuery.Q3, NexmarkQuery.Q11);
        assertThat(queriesDifferingFromTheReference(stateful, "rocksdb"))
                .as("queries whose Flink (RocksDB) result differs from the reference's").isEmpty();
    }

    private List<String> queriesDifferingFromTheReference(final List<NexmarkQuery> queries, final String stateBackend) throws Exception {
        final NexmarkGenerator generator = new NexmarkGenerator(11, 500, 1_700_000_000_000L, 0);
        InMemoryStreams.generate(generator, EVENTS, true, true, true);
        final List<String> differing = new ArrayList<>();
        for (final NexmarkQuery query : queries) {
            final ResultFingerprint expected = NexmarkReference.run(query, generator, EVENTS);
            final ResultFingerprint found = FlinkNexmark.runOnce(query, EVENTS, 2, 1_000, stateBackend,
                    checkpoints.resolve(stateBackend + "-" + query.name()), FlinkNexmark.Tuning.DEFAULTS);
            System.out.println(query + ": reference " + expected + ", Flink (" + stateBackend + ") " + found);
            assertThat(expected.rows()).as(query + "'s reference rows").isPositive();
            if (!found.equals(expected)) {
                differing.add(query + " (reference " + expected + ", Flink " + found + ")");
            }
        }
        return differing;
    }

    /**
     * A paced run reads each event when its time is due, so it lasts the input's event time; every
     * bid after the warm-up is a Q1 row with a latency, and the rows are still the reference's.
     */
    @Test
    void when_Q1RunsPaced_then_itTakesTheInputsEventTimeAndEveryMeasuredRowHasALatency() throws Exception {
        final long rate = 20_000;
        final long events = 3 * rate; // three seconds of event time
        final long base = 1_700_000_000_000L;
        final NexmarkGenerator generator = new NexmarkGenerator(5, rate, base, 0);
        InMemoryStreams.generate(generator, events, false, false, true);
        final long warmUpMs = 1_000;
        final PacedRun paced = new PacedRun(base, warmUpMs, generator.timeOf(events - 1));
        long measuredBids = 0;
        for (long n = 0; n < events; n++) {
            if (generator.event(n) instanceof Bid && generator.timeOf(n) >= base + warmUpMs) {
                measuredBids++;
            }
        }
        InMemoryStreams.pacing = paced;
        final long start = System.nanoTime();
        final ResultFingerprint found;
        try {
            found = FlinkNexmark.runOnce(NexmarkQuery.Q1, events, 2, 1_000, "hashmap", checkpoints.resolve("paced"),
                    FlinkNexmark.Tuning.LOW_LATENCY);
        } finally {
            InMemoryStreams.pacing = null;
        }
        final long elapsedMs = (System.nanoTime() - start) / 1_000_000;
        assertThat(found).isEqualTo(NexmarkReference.run(NexmarkQuery.Q1, generator, events));
        assertThat(elapsedMs).as("the run's wall time against its %d ms of event time", generator.timeOf(events - 1) - base)
                .isGreaterThanOrEqualTo(generator.timeOf(events - 1) - base);
        final Histogram latencies = paced.latencies();
        assertThat(latencies.getTotalCount()).as("rows with a latency").isEqualTo(measuredBids);
        assertThat(latencies.getValueAtPercentile(50)).as("median latency, ns").isLessThan(1_000_000_000L);
    }
}
