package io.streamgrid.jobs.pipeline.impl;

import com.hazelcast.function.FunctionEx;
import com.hazelcast.function.SupplierEx;
import com.hazelcast.jet.core.DAG;
import com.hazelcast.jet.core.Edge;
import com.hazelcast.jet.core.Processor;
import com.hazelcast.jet.core.ProcessorMetaSupplier;
import com.hazelcast.jet.core.Vertex;
import com.hazelcast.jet.core.processor.Processors;
import io.streamgrid.jobs.pipeline.CassandraOutput;
import io.streamgrid.jobs.pipeline.Replay;
import io.streamgrid.sink.CassandraSinks;

/**
 * The DAG every StreamGrid job has: a fused log-reading processor emitting {@link StateUpdate}s →
 * the state-map writer, and one exactly-once Cassandra sink per table binding; last, a local
 * progress edge to a vertex that discards what it gets (see {@link PartitionTasksP#complete()}:
 * it keeps Jet from parking a busy reader's thread).
 */
final class JobDag {
    private JobDag() {
    }

    /**
     * {@code sourceName}: the reading vertex's name after the job's, e.g. "ingest-window";
     * {@code replay}: null for the live job, else the maps and tables are the replay's ({@link Replay}).
     */
    static DAG of(final String jobName, final String sourceName, final SupplierEx<Processor> source, final int localParallelism,
                  final CassandraOutput liveCassandra, final Replay replay) {
        final CassandraOutput cassandra = replay == null ? liveCassandra : replay.output(liveCassandra);
        final DAG dag = new DAG();
        final Vertex reader = dag.newVertex(jobName + "-" + sourceName, ProcessorMetaSupplier.of(localParallelism, source));
        final Vertex sink = dag.newVertex(jobName + "-state-writer", () -> new StateWriterP(replay)).localParallelism(1);
        // Local and partitioned by key: a key's updates always take the same path, so they stay in order.
        dag.edge(Edge.between(reader, sink).partitioned(update -> ((StateUpdate) update).partitionKey()));
        int ordinal = 1;
        if (cassandra != null) {
            for (final CassandraOutput.Binding binding : cassandra.bindings()) {
                final String map = binding.map();
                final FunctionEx<Object, Object[]> toRow = binding.toRow();
                final FunctionEx<Object, Object[]> keyToPrimaryKey = binding.keyToPrimaryKey();
                final FunctionEx<Object, Object[]> rowOfUpdate = item -> {
                    final StateUpdate update = (StateUpdate) item;
                    return update.map().equals(map) && update.value() != null ? toRow.apply(update.value()) : null;
                };
                final FunctionEx<Object, Object[]> deletedKeyOfUpdate = keyToPrimaryKey == null ? null : item -> {
                    final StateUpdate update = (StateUpdate) item;
                    return update.map().equals(map) && update.value() == null ? keyToPrimaryKey.apply(update.key()) : null;
                };
                final Vertex table = dag.newVertex(jobName + "-cassandra-" + binding.table().table(),
                        CassandraSinks.metaSupplier(cassandra.target(), binding.table(), rowOfUpdate, deletedKeyOfUpdate,
                                cassandra.options()))
                        .localParallelism(1);
                dag.edge(Edge.from(reader, ordinal++).to(table).partitioned(update -> ((StateUpdate) update).partitionKey()));
            }
        }
        final Vertex progress = dag.newVertex(jobName + "-progress", Processors.noopP()).localParallelism(localParallelism);
        dag.edge(Edge.from(reader, ordinal).to(progress).isolated());
        return dag;
    }
}
