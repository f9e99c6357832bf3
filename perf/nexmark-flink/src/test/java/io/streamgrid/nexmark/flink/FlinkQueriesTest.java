package io.streamgrid.nexmark.flink;

import io.streamgrid.nexmark.NexmarkGenerator;
import io.streamgrid.nexmark.NexmarkQuery;
import io.streamgrid.nexmark.NexmarkReference;
import io.streamgrid.nexmark.ResultFingerprint;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
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
        final NexmarkGenerator generator = new NexmarkGenerator(11, 500, 1_700_000_000_000L, 0);
        InMemoryStreams.generate(generator, EVENTS, true, true, true);
        final List<String> differing = new ArrayList<>();
        for (final NexmarkQuery query : NexmarkQuery.values()) {
            final ResultFingerprint expected = NexmarkReference.run(query, generator, EVENTS);
            final ResultFingerprint found = FlinkNexmark.runOnce(query, EVENTS, 2, 1_000, "hashmap", checkpoints.resolve(query.name()));
            System.out.println(query + ": reference " + expected + ", Flink " + found);
            assertThat(expected.rows()).as(query + "'s reference rows").isPositive();
            if (!found.equals(expected)) {
                differing.add(query + " (reference " + expected + ", Flink " + found + ")");
            }
        }
        assertThat(differing).as("queries whose Flink result differs from the reference's").isEmpty();
    }
}
