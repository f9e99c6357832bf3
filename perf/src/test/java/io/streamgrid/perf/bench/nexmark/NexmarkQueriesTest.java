package io.streamgrid.perf.bench.nexmark;

import com.hazelcast.jet.JetService;
import com.hazelcast.jet.pipeline.Pipeline;
import io.streamgrid.jobs.pipeline.JobDefinition;
import io.streamgrid.nexmark.NexmarkGenerator;
import io.streamgrid.nexmark.NexmarkQuery;
import io.streamgrid.nexmark.NexmarkReference;
import io.streamgrid.nexmark.ResultFingerprint;
import io.streamgrid.perf.bench.EmbeddedGrid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * StreamGrid's and plain Jet's NEXMark queries against the reference implementation, over the same
 * small input written to the schema logs as the benchmark writes it: the benchmark compares engines
 * by their results, so each must be right first. Event time moves slowly (500 events per second)
 * so that 40 s of it hold several windows, sessions and closed auctions.
 */
class NexmarkQueriesTest {
    private static final long EVENTS = 20_000;

    @TempDir
    Path dir;

    @Test
    void when_eachBuiltQueryRuns_then_StreamGridsAndPlainJetsResultsEqualTheReferences() {
        final NexmarkSetup setup = new NexmarkSetup(11, 500, 1_700_000_000_000L, 0, 2);
        final NexmarkGenerator generator = setup.generator();
        final Path ingest = dir.resolve("ingest");
        final InputLogs input = InputLogs.chronicle(ingest);
        NexmarkLogs.write(input, generator, EVENTS, setup.parallelism(), line -> { });
        final List<String> differing = new ArrayList<>();
        int built = 0;
        try (EmbeddedGrid grid = EmbeddedGrid.start(dir.resolve("member"))) {
            final JetService jet = grid.member().getJet();
            for (final NexmarkQuery query : NexmarkQuery.values()) {
                final ResultFingerprint expected = NexmarkReference.run(query, generator, EVENTS);
                final Optional<List<JobDefinition>> ours = StreamGridQueries.jobs(query);
                if (ours.isPresent()) {
                    built++;
                    final InJvmRun run = InJvmRun.run(jet, ResultRows.STREAMGRID, expected,
                            j -> NexmarkBench.submitAll(j, ours.get(), input, setup), 5_000);
                    System.out.println(query + ": reference " + expected + ", StreamGrid " + run.result());
                    if (!run.result().equals(expected)) {
                        differing.add(query + " StreamGrid (reference " + expected + ", found " + run.result() + ")");
                    }
                }
                final Optional<Pipeline> pipeline = JetQueries.pipeline(query, ingest, setup);
                if (pipeline.isPresent()) {
                    built++;
                    final InJvmRun run = InJvmRun.run(jet, ResultRows.PLAIN_JET, expected,
                            j -> NexmarkBench.submitJet(j, pipeline.get(), query), 5_000);
                    System.out.println(query + ": reference " + expected + ", plain Jet " + run.result());
                    if (!run.result().equals(expected)) {
                        differing.add(query + " plain Jet (reference " + expected + ", found " + run.result() + ")");
                    }
                }
            }
        }
        assertThat(built).as("queries built, in StreamGrid and in plain Jet").isEqualTo(2 * NexmarkQuery.values().length);
        assertThat(differing).as("results that differ from the reference's").isEmpty();
    }
}
