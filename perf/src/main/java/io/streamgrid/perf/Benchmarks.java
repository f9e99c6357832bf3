package io.streamgrid.perf;

import io.streamgrid.perf.bench.CassandraSinkBench;
import io.streamgrid.perf.bench.CqLatencyBench;
import io.streamgrid.perf.bench.IngestBench;
import io.streamgrid.perf.bench.MigrationBench;
import io.streamgrid.perf.bench.PointReadsBench;
import io.streamgrid.perf.bench.WindowingBench;
import io.streamgrid.perf.report.ResultsPage;

import java.util.List;

/** The catalogue, in the order: the benchmarks built, and those still pending. */
final class Benchmarks {
    private static final List<String> ORDER = List.of(
            "windowing", "exactly-once", "point-reads", "cq-latency", "cassandra-sink", "ingest", "migration");

    private Benchmarks() {
    }

    static List<Benchmark> built() {
        return List.of(WindowingBench.throughput(), WindowingBench.exactlyOnceCost(), new PointReadsBench(), new CqLatencyBench(), new CassandraSinkBench(), new IngestBench(), new MigrationBench());
    }

    /** Benchmarks the issue asks for that do not exist yet; RESULTS.md lists them as pending. */
    static List<ResultsPage.Entry> pending() {
        final List<ResultsPage.Entry> all = List.of(
                new ResultsPage.Entry("windowing", "sliding-window count throughput and latency: ours vs plain Jet vs a hand-written loop", false),
                new ResultsPage.Entry("exactly-once", "cost of 1 s snapshots: windowing with and without exactly-once", false),
                new ResultsPage.Entry("point-reads", "LocalView vs near cache vs client vs embedded member vs ConcurrentHashMap get", false),
                new ResultsPage.Entry("cq-latency", "continuous-query write→listener latency: ours vs QueryCache vs predicate entry listener", false),
                new ResultsPage.Entry("cassandra-sink", "exactly-once Cassandra sink vs the raw driver's best modes", false),
                new ResultsPage.Entry("migration", "client write latency while a member joins and leaves (≥ 1 GB of state)", false));
        final List<String> builtNames = built().stream().map(Benchmark::name).toList();
        return all.stream().filter(e -> !builtNames.contains(e.name())).toList();
    }

    static int order(final String name) {
        final int index = ORDER.indexOf(name);
        return index < 0 ? ORDER.size() : index;
    }
}
