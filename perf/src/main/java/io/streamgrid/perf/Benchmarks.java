package io.streamgrid.perf;

import io.streamgrid.perf.bench.CassandraSinkBench;
import io.streamgrid.perf.bench.CqFanOutBench;
import io.streamgrid.perf.bench.CqLatencyBench;
import io.streamgrid.perf.bench.FraudLatencyBench;
import io.streamgrid.perf.bench.FraudScoringBench;
import io.streamgrid.perf.bench.EnrichmentBench;
import io.streamgrid.perf.bench.IngestBench;
import io.streamgrid.perf.bench.KafkaStreamsBench;
import io.streamgrid.perf.bench.KeyedBench;
import io.streamgrid.perf.bench.PatternBench;
import io.streamgrid.perf.bench.LookupJoinBench;
import io.streamgrid.perf.bench.MigrationBench;
import io.streamgrid.perf.bench.PointReadsBench;
import io.streamgrid.perf.bench.StateCodecsBench;
import io.streamgrid.perf.bench.PublishBench;
import io.streamgrid.perf.bench.PublishResultBench;
import io.streamgrid.perf.bench.RecommendationLatencyBench;
import io.streamgrid.perf.bench.SlowSubscriberBench;
import io.streamgrid.perf.bench.StateReloadBench;
import io.streamgrid.perf.bench.DurableSnapshotsBench;
import io.streamgrid.perf.bench.WindowingBench;

import java.util.List;

/** The catalogue, in the order (the order of RESULTS.md). */
final class Benchmarks {
    private Benchmarks() {
    }

    static List<Benchmark> all() {
        return List.of(WindowingBench.throughput(), WindowingBench.exactlyOnceCost(), new PointReadsBench(),
                new CqLatencyBench(), new CqFanOutBench(), new SlowSubscriberBench(), new CassandraSinkBench(), new IngestBench(), new MigrationBench(), new StateReloadBench(), new DurableSnapshotsBench(), new KeyedBench(),
                new PatternBench(), new LookupJoinBench(), new EnrichmentBench(),
                new RecommendationLatencyBench(), new FraudScoringBench(), new FraudLatencyBench(), new StateCodecsBench(), new PublishBench(), new KafkaStreamsBench(), new PublishResultBench(),
                new io.streamgrid.perf.bench.nexmark.NexmarkBench(), new io.streamgrid.perf.bench.ParameterServerBench(),
                new io.streamgrid.perf.bench.FederatedBench());
    }
}
