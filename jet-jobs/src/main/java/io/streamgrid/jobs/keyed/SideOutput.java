package io.streamgrid.jobs.keyed;

import java.io.Serializable;
import java.util.Objects;

/**
 * A typed side output of a keyed job: a map beside its results where the function sets aside what
 * deserves a look — suspicious payments, readings out of range, events it could not use — with the
 * value type fixed when the job is declared. Declare it with {@link KeyedJob.Builder#sideOutputs},
 * write it with {@link KeyedContext#output}: the compiler checks the value's type, the job refuses
 * an output it does not declare, and the map is listed among the job's side maps (a replay writes
 * its own copy, as it does for every map). For a stream other jobs read, emit events instead
 * ({@link KeyedJob.Builder#emits}: a log typed by its schema).
 *
 * @param <V> the values written to it
 */
public final class SideOutput<V> implements Serializable {
    private final String map;
    private final Class<V> type;

    private SideOutput(final String map, final Class<V> type) {
        this.map = map;
        this.type = type;
    }

    /**
     * An output to {@code map} of values of {@code type} (records or Compact-serializable classes,
     * so any client can read them).
     *
     * @throws IllegalArgumentException for a blank name or a dimension map ({@code dim.*})
     */
    public static <V> SideOutput<V> toMap(final String map, final Class<V> type) {
        Objects.requireNonNull(type, "type of side output " + map);
        if (map == null || map.isBlank() || map.startsWith("dim.")) {
            throw new IllegalArgumentException("side output map '" + map + "' must be named, and not a dimension map (dim.*)");
        }
        return new SideOutput<>(map, type);
    }

    public String map() {
        return map;
    }

    public Class<V> type() {
        return type;
    }

    @Override
    public boolean equals(final Object other) {
        return other instanceof SideOutput<?> that && map.equals(that.map) && type.equals(that.type);
    }

    @Override
    public int hashCode() {
        return map.hashCode();
    }

    @Override
    public String toString() {
        return "side output " + map + " of " + type.getSimpleName();
    }
}
