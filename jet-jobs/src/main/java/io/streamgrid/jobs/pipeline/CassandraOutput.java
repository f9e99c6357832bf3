package io.streamgrid.jobs.pipeline;

import com.hazelcast.function.FunctionEx;
import io.streamgrid.sink.CassandraTarget;
import io.streamgrid.sink.SinkOptions;
import io.streamgrid.sink.TableSpec;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;

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

    /**
     * Values put into map {@code map} become rows of {@code table} through {@code toRow}; keys
     * removed from the map delete the row whose primary key {@code keyToPrimaryKey} gives (values in
     * {@link TableSpec#primaryKey()} order). {@code keyToPrimaryKey} may be null only for a map the
     * job never removes from: a job that retracts (session windows) is refused without it, so that
     * retracted rows never silently stay in the table.
     */
    public record Binding(String map, TableSpec table, FunctionEx<Object, Object[]> toRow,
                          FunctionEx<Object, Object[]> keyToPrimaryKey) implements Serializable {
        public Binding {
            Objects.requireNonNull(map, "map");
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(toRow, "toRow");
        }

        /** A binding for a map the job only puts into. */
        public Binding(final String map, final TableSpec table, final FunctionEx<Object, Object[]> toRow) {
            this(map, table, toRow, null);
        }
    }
}
