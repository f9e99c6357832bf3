package io.streamgrid.sink;

import com.hazelcast.function.FunctionEx;
import com.hazelcast.jet.core.ProcessorMetaSupplier;
import com.hazelcast.jet.pipeline.Sink;
import com.hazelcast.jet.pipeline.Sinks;
import io.streamgrid.sink.impl.CassandraSinkMetaSupplier;
import io.streamgrid.sink.impl.CassandraSinkP;

/**
 * The Cassandra sink: exactly-once (two-phase commit bound to Jet snapshots) in EXACTLY_ONCE jobs,
 * idempotent upserts otherwise. See {@link CassandraSinkP} for the protocol. An EXACTLY_ONCE job
 * with this sink must run with {@code JobConfig.setSuspendOnFailure(true)} (the processor refuses to
 * start otherwise): a decided transaction that cannot be committed then suspends the job with its
 * snapshot instead of losing it.
 *
 * <p>Write timestamps are {@code base + k * 1000} µs for an execution's k-th epoch. The base is taken
 * on a member when each execution of the job starts: the latest of the member's clock, 1 ms above
 * the highest timestamp any exactly-once sink used on the table (kept in the cluster map
 * {@value #TIMESTAMP_LEDGER_MAP}), and 1 ms above the timestamps in the snapshot the execution
 * restores — so a job submitted later writes above an earlier one whatever the submitting host's
 * clock says, a restored job writes above itself even after a restart of the whole cluster, and the
 * timestamps stay within a few milliseconds of the fastest member clock that took a base, however
 * often the job restarts (a restart adds at most 2 ms to their lead; every epoch that follows, at
 * least 10 ms long and 1 ms on the timestamp line, takes 9 ms of it away). The target table should be written by this sink only (other writers'
 * timestamps would compete with these).
 */
public final class CassandraSinks {
    /**
     * The cluster map holding the highest write timestamp used per table; persist it with the job
     * maps when jobs outlive the cluster, so that another job on the table also writes above.
     */
    public static final String TIMESTAMP_LEDGER_MAP = "streamgrid.sink-timestamps";

    private CassandraSinks() {
    }

    /**
     * A sink writing {@code toRow(item)} — values in {@code spec}'s column order — into {@code spec}'s
     * table; items for which {@code toRow} returns null are skipped. Items are routed by
     * {@code partitionKeyFn} so that a key's rows always meet the same processor (order and
     * coalescing hold per key). Create the table first with {@link CassandraSchema#ensure}.
     */
    public static <T> Sink<T> cassandra(final CassandraTarget target, final TableSpec spec,
                                        final FunctionEx<? super T, Object[]> toRow,
                                        final FunctionEx<? super T, ?> partitionKeyFn, final SinkOptions options) {
        return cassandra(target, spec, toRow, null, partitionKeyFn, options);
    }

    /**
     * As {@link #cassandra(CassandraTarget, TableSpec, FunctionEx, FunctionEx, SinkOptions)}; an item
     * for which {@code toRow} returns null and {@code toDeletedKey} a primary key (values in
     * {@link TableSpec#primaryKey()} order) deletes that row.
     */
    public static <T> Sink<T> cassandra(final CassandraTarget target, final TableSpec spec,
                                        final FunctionEx<? super T, Object[]> toRow,
                                        final FunctionEx<? super T, Object[]> toDeletedKey,
                                        final FunctionEx<? super T, ?> partitionKeyFn, final SinkOptions options) {
        return Sinks.fromProcessor("cassandra-" + spec.table(), metaSupplier(target, spec, toRow, toDeletedKey, options),
                partitionKeyFn);
    }

    /** The processor supplier, for DAG-level jobs; {@code toDeletedKey} may be null (nothing is ever deleted). */
    public static <T> ProcessorMetaSupplier metaSupplier(final CassandraTarget target, final TableSpec spec,
                                                         final FunctionEx<? super T, Object[]> toRow,
                                                         final FunctionEx<? super T, Object[]> toDeletedKey,
                                                         final SinkOptions options) {
        return new CassandraSinkMetaSupplier<>(target, spec, toRow, toDeletedKey, options);
    }
}
