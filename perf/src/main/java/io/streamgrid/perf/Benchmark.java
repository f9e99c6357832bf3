package io.streamgrid.perf;

import io.streamgrid.perf.report.BenchResult;

/**
 * One side-by-side benchmark: it measures ours and its references in the same run and returns what
 * it measured. It starts and stops everything it needs (members, Cassandra, files under its work
 * directory), also when it fails.
 */
public interface Benchmark {
    /** The name {@code ./streamgrid bench} takes. */
    String name();

    /** One line: what is compared with what. */
    String title();

    /**
     * Runs the benchmark.
     *
     * @throws Exception when a subject could not be measured; no partial result is written then
     */
    BenchResult run(BenchContext context) throws Exception;
}
