package io.streamgrid.sink.impl;

import com.hazelcast.cluster.Address;
import com.hazelcast.function.FunctionEx;
import com.hazelcast.jet.config.ProcessingGuarantee;
import com.hazelcast.jet.core.ProcessorMetaSupplier;
import com.hazelcast.jet.core.ProcessorSupplier;
import com.hazelcast.jet.core.metrics.Metrics;
import io.streamgrid.sink.CassandraTarget;
import io.streamgrid.sink.SinkOptions;
import io.streamgrid.sink.TableSpec;

import java.util.List;
import java.util.function.Function;

/**
 * Creates the sink's processors, one per member by default. Each execution of the job (first start,
 * every restart) takes its write-timestamp base once, on the coordinating member, from the
 * {@link TimestampLedger}; every processor of the execution gets the same base, so the new
 * epochs of all processors write above everything written to the table before, whichever processor
 * owns a key now. Transactions recommitted after a restore keep the timestamps they were prepared
 * with (they are in the snapshot), so they stay below every write that followed them.
 */
public final class CassandraSinkMetaSupplier<T> implements ProcessorMetaSupplier {
    private static final long serialVersionUID = 1L;

    private final CassandraTarget target;
    private final TableSpec spec;
    private final FunctionEx<? super T, Object[]> toRow;
    private final FunctionEx<? super T, Object[]> toDeletedKey;
    private final SinkOptions options;
    private transient long timestampBaseMicros;

    /** @param toDeletedKey null when the input never removes rows */
    public CassandraSinkMetaSupplier(final CassandraTarget target, final TableSpec spec, final FunctionEx<? super T, Object[]> toRow,
                                     final FunctionEx<? super T, Object[]> toDeletedKey, final SinkOptions options) {
        this.target = target;
        this.spec = spec;
        this.toRow = toRow;
        this.toDeletedKey = toDeletedKey;
        this.options = options;
    }

    @Override
    public int preferredLocalParallelism() {
        return 1;
    }

    @Override
    public void init(final Context context) {
        if (context.processingGuarantee() == ProcessingGuarantee.EXACTLY_ONCE) {
            timestampBaseMicros = TimestampLedger.newBase(TimestampLedger.map(context.hazelcastInstance()),
                    spec.qualifiedName(), System.currentTimeMillis() * 1_000);
        }
    }

    @Override
    public Function<? super Address, ? extends ProcessorSupplier> get(final List<Address> addresses) {
        final long base = timestampBaseMicros;
        final CassandraTarget target = this.target;
        final TableSpec spec = this.spec;
        final FunctionEx<? super T, Object[]> toRow = this.toRow;
        final FunctionEx<? super T, Object[]> toDeletedKey = this.toDeletedKey;
        final SinkOptions options = this.options;
        return address -> ProcessorSupplier.of(() -> new CassandraSinkP<T>(spec, toRow, toDeletedKey, options, base,
                context -> new CqlRowStore(target, spec, context.processingGuarantee() == ProcessingGuarantee.EXACTLY_ONCE,
                        context.hazelcastInstance()), Metrics::threadSafeMetric));
    }
}
