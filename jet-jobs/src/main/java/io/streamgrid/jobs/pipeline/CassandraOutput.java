package io.streamgrid.jobs.pipeline;

import com.hazelcast.function.FunctionEx;
import io.streamgrid.sink.CassandraTarget;
import io.streamgrid.sink.SinkOptions;
import io.streamgrid.sink.TableSpec;

import java.io.Serializable;
import java.util.List;

/**
 * Where a windowed job also writes its results, exactly-once: Cassandra tables fed from its state
 * maps. Each binding turns the values written to one map into rows of one table.
 *
 * @param bindings map → table, with the value-to-row function (values in the table's column order)
 */
public record CassandraOutput(CassandraTarget target, List<Binding> bindings, SinkOptions options) implements Serializable {

    public CassandraOutput {
        bindings = List.copyOf(bindings);
    }

    /** Values put into map {@code map} become rows of {@code table} through {@code toRow}. */
    public record Binding(String map, TableSpec table, FunctionEx<Object, Object[]> toRow) implements Serializable {
    }
}
