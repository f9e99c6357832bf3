package io.streamgrid.jobs.pipeline.impl;

import com.hazelcast.function.SupplierEx;
import com.hazelcast.jet.core.DAG;
import com.hazelcast.jet.core.Edge;
import com.hazelcast.jet.core.Processor;
import com.hazelcast.jet.core.ProcessorMetaSupplier;
import com.hazelcast.jet.core.Vertex;
import com.hazelcast.function.FunctionEx;
import io.streamgrid.jobs.pipeline.CassandraOutput;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.sink.CassandraSinks;

/** Builds the two-vertex DAG of a windowed job: ingest+window → state writer. */
public final class WindowedDag {
    private WindowedDag() {
    }

    public static DAG of(final WindowedJob<?> job, final String ingestDir, final int localParallelism) {
        return of(job, ingestDir, localParallelism, null);
    }

    /** With {@code cassandra} (may be null): one exactly-once Cassandra sink vertex per binding. */
    public static DAG of(final WindowedJob<?> job, final String ingestDir, final int localParallelism,
                         final CassandraOutput cassandra) {
        final DAG dag = new DAG();
        final SupplierEx<Processor> source = () -> new IngestWindowP<>(job, ingestDir);
        final Vertex window = dag.newVertex(job.name() + "-ingest-window", ProcessorMetaSupplier.of(localParallelism, source));
        final Vertex sink = dag.newVertex(job.name() + "-state-writer", StateWriterP::new).localParallelism(1);
        // Local and partitioned by key: a key's updates always take the same path, so they stay in order.
        dag.edge(Edge.between(window, sink).partitioned(update -> ((StateUpdate) update).partitionKey()));
        if (cassandra != null) {
            int ordinal = 1;
            for (final CassandraOutput.Binding binding : cassandra.bindings()) {
                checkRetractions(job, binding);
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
                final Vertex table = dag.newVertex(job.name() + "-cassandra-" + binding.table().table(),
                        CassandraSinks.metaSupplier(cassandra.target(), binding.table(), rowOfUpdate, deletedKeyOfUpdate,
                                cassandra.options()))
                        .localParallelism(1);
                dag.edge(Edge.from(window, ordinal++).to(table).partitioned(update -> ((StateUpdate) update).partitionKey()));
            }
        }
        return dag;
    }

    /**
     * Session windows retract results merged away (the state map's key is removed); a table bound to
     * such a map must delete those rows, so the binding needs a key-to-primary-key function.
     */
    static void checkRetractions(final WindowedJob<?> job, final CassandraOutput.Binding binding) {
        if (binding.keyToPrimaryKey() == null && job.policy().window() instanceof WindowDefinition.Session
                && binding.map().equals(job.stateMap())) {
            throw new IllegalArgumentException("job " + job.name() + " retracts sessions merged away from " + binding.map()
                    + ", but its binding to table " + binding.table().qualifiedName() + " has no key-to-primary-key function: "
                    + "give one (CassandraOutput.Binding's 4th argument) so that retracted rows are deleted from the table");
        }
    }
}
