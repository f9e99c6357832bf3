package io.streamgrid.perf.bench.nexmark;

import com.hazelcast.jet.JetService;
import io.streamgrid.jobs.ingest.KafkaLogs;
import io.streamgrid.jobs.kafka.KafkaBroker;
import io.streamgrid.jobs.pipeline.JobDefinition;
import io.streamgrid.nexmark.NexmarkQuery;
import io.streamgrid.nexmark.NexmarkReference;
import io.streamgrid.nexmark.ResultFingerprint;
import io.streamgrid.perf.bench.EmbeddedGrid;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * StreamGrid's NEXMark queries with their input in Kafka topics on a real broker (a child JVM), as
 * the benchmark's Kafka phase runs them, in its order: a stateless query, Q3 and Q8, whose re-keyed
 * copies go through topics of their own (a topic has one emitting job, so theirs must differ), Q8
 * twice, so its second run proves those topics are made empty again between runs (a run over the
 * first run's copies would count every row twice).
 */
class NexmarkOverKafkaTest {
    private static final long EVENTS = 20_000;

    @TempDir
    Path dir;

    @Test
    void when_theInputIsInKafka_then_StreamGridsResultsEqualTheReferencesRunAfterRun() {
        final NexmarkSetup setup = new NexmarkSetup(11, 500, 1_700_000_000_000L, 0, 2);
        final List<String> differing = new ArrayList<>();
        int runs = 0;
        try (KafkaBroker broker = KafkaBroker.start(dir.resolve("kafka"), System.out::println);
             EmbeddedGrid grid = EmbeddedGrid.start(dir.resolve("member"))) {
            final InputLogs input = InputLogs.kafka(new KafkaLogs(broker.bootstrapServers(), "nexmark-test.", (short) 1),
                    dir.resolve("ingest"));
            NexmarkLogs.write(input, setup.generator(), EVENTS, setup.parallelism(), line -> { });
            final JetService jet = grid.member().getJet();
            for (final NexmarkQuery query : List.of(NexmarkQuery.Q1, NexmarkQuery.Q3, NexmarkQuery.Q8, NexmarkQuery.Q8)) {
                final ResultFingerprint expected = NexmarkReference.run(query, setup.generator(), EVENTS);
                final List<JobDefinition> jobs = StreamGridQueries.jobs(query).orElseThrow();
                final InJvmRun run = InJvmRun.run(jet, ResultRows.STREAMGRID, expected,
                        j -> NexmarkBench.submitAll(j, jobs, input, setup), 20_000);
                runs++;
                System.out.println(query + " over Kafka: reference " + expected + ", StreamGrid " + run.result() + " after "
                        + run.elapsedNanos() / 1_000_000 + " ms");
                assertThat(expected.rows()).as(query + "'s reference rows").isPositive();
                if (!run.result().equals(expected)) {
                    differing.add(query + " run " + runs + " (reference " + expected + ", found " + run.result() + ")");
                }
            }
        }
        assertThat(runs).isEqualTo(4);
        assertThat(differing).as("runs over Kafka whose result differs from the reference's").isEmpty();
    }
}
