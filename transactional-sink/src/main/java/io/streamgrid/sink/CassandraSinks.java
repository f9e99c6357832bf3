package io.streamgrid.sink;

import com.hazelcast.function.FunctionEx;
import com.hazelcast.function.SupplierEx;
import com.hazelcast.jet.core.Processor;
import com.hazelcast.jet.core.ProcessorMetaSupplier;
import com.hazelcast.jet.pipeline.Sink;
import com.hazelcast.jet.pipeline.Sinks;
import io.streamgrid.sink.impl.CassandraSinkP;

/**
 * The Cassandra sink: exactly-once (two-phase commit bound to Jet snapshots) in EXACTLY_ONCE jobs,
 * idempotent upserts otherwise. See {@link CassandraSinkP} for the protocol.
 *
 * <p>Write timestamps are {@code base + epoch * 1000} µs, with {@code base} the wall-clock time when
 * the sink was created (on the submitting client): a job submitted later writes above an earlier
 * one. The target table should be written by this sink only (other writers' timestamps would
 * compete with these).
 */
public final class CassandraSinks {
    private CassandraSinks() {
    }

    /**
     * A sink writing {@code toRow(item)} — values in {@code spec}'s column order — into {@code spec}'s
     * table; items for which {@code toRow} returns null are skipped. Items are routed by {@code partitionKeyFn} so that a key's rows always meet the same
     * processor (order and coalescing hold per key). Create the table first with
     * {@link CassandraSchema#ensure}.
     */
    public static <T> Sink<T> cassandra(final CassandraTarget target, final TableSpec spec,
                                        final FunctionEx<? super T, Object[]> toRow,
                                        final FunctionEx<? super T, ?> partitionKeyFn, final SinkOptions options) {
        return Sinks.fromProcessor("cassandra-" + spec.table(), metaSupplier(target, spec, toRow, options), partitionKeyFn);
    }

    /** The processor supplier, for DAG-level jobs. */
    public static <T> ProcessorMetaSupplier metaSupplier(final CassandraTarget target, final TableSpec spec,
                                                         final FunctionEx<? super T, Object[]> toRow, final SinkOptions options) {
        final long timestampBase = System.currentTimeMillis() * 1_000;
        final SupplierEx<Processor> supplier = () -> new CassandraSinkP<T>(target, spec, toRow, options, timestampBase);
        return ProcessorMetaSupplier.of(1, supplier);
    }
}
