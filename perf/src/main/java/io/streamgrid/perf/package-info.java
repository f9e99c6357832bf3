/**
 * Benchmarks: JMH for in-process hot paths and an open-loop latency harness for end-to-end paths,
 * each reported as a ratio to a plain-Hazelcast or raw-library baseline measured in the same run.
 *
 * <p>Not built yet: see the perf issue. No figure is reported before its benchmark exists.
 */
package io.streamgrid.perf;
