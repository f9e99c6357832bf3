package io.streamgrid.jobs.pipeline.impl;

import com.hazelcast.function.SupplierEx;
import com.hazelcast.jet.core.DAG;
import com.hazelcast.jet.core.Edge;
import com.hazelcast.jet.core.Processor;
import com.hazelcast.jet.core.ProcessorMetaSupplier;
import com.hazelcast.jet.core.Vertex;
import io.streamgrid.jobs.pipeline.WindowedJob;

/** Builds the two-vertex DAG of a windowed job: ingest+window → state writer. */
public final class WindowedDag {
    private WindowedDag() {
    }

    public static DAG of(final WindowedJob<?> job, final String ingestDir, final int localParallelism) {
        final DAG dag = new DAG();
        final SupplierEx<Processor> source = () -> new IngestWindowP<>(job, ingestDir);
        final Vertex window = dag.newVertex(job.name() + "-ingest-window", ProcessorMetaSupplier.of(localParallelism, source));
        final Vertex sink = dag.newVertex(job.name() + "-state-writer", StateWriterP::new).localParallelism(1);
        // Local and partitioned by key: a key's updates always take the same path, so they stay in order.
        dag.edge(Edge.between(window, sink).partitioned(update -> ((StateUpdate) update).partitionKey()));
        return dag;
    }
}
