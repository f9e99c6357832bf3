package io.streamgrid.jobs.keyed;

import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.FieldType;

import java.io.Serializable;
import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A keyed job: the events of one schema, grouped by the schema's key, through a
 * {@link KeyedFunction} with per-key state and timers. Immutable; it travels to the members inside
 * the Jet job, so the function and codec must be serializable (and their classes on the members'
 * class path or in the job's jar).
 *
 * <p>Maps it writes: those its function writes to (declare them with {@link Builder#writes}, so
 * that state TTLs and Cassandra bindings can be checked against them), {@code late.<name>} (events
 * beyond the allowed lateness, see {@link io.streamgrid.jobs.pipeline.LateEvent}) and
 * {@code rejected.<name>} (records that are not valid events of the schema) and, with lookups that
 * side-output missing keys, {@code unmatched.<name>}.
 *
 * @param <S> the per-key state
 */
public final class KeyedJob<S> implements Serializable {
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,62}");

    private final String name;
    private final EventSchema schema;
    private final KeyedFunction<S> function;
    private final StateCodec<S> codec;
    private final TimePolicy policy;
    private final List<String> stateMaps;
    private final List<Lookup> lookups;

    private KeyedJob(final Builder<S> builder) {
        this(builder.name, builder.schema, builder.function, builder.codec, builder.policy, builder.stateMaps, builder.lookups);
    }

    private KeyedJob(final String name, final EventSchema schema, final KeyedFunction<S> function, final StateCodec<S> codec,
                     final TimePolicy policy, final List<String> stateMaps, final List<Lookup> lookups) {
        this.name = name;
        this.schema = Objects.requireNonNull(schema, "schema");
        this.function = Objects.requireNonNull(function, "function of job " + name);
        this.codec = Objects.requireNonNull(codec, "state codec of job " + name);
        this.policy = policy;
        this.stateMaps = List.copyOf(stateMaps);
        this.lookups = List.copyOf(lookups);
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("job name '" + name
                    + "' must be lower-case letters, digits and -, starting with a letter, at most 63 characters");
        }
        for (final Lookup lookup : this.lookups) {
            final FieldType type = schema.field(lookup.keyField()).type();
            if (type != FieldType.STRING && type != FieldType.LONG && type != FieldType.INT && type != FieldType.TIMESTAMP) {
                throw new IllegalArgumentException("job " + name + ": lookup in " + lookup.map() + " by field " + lookup.keyField()
                        + ", which is " + type.yamlName() + ": look up by a string, int, long or timestamp field");
            }
        }
        if (this.lookups.stream().map(Lookup::map).distinct().count() != this.lookups.size()) {
            throw new IllegalArgumentException("job " + name + " looks up the same map twice: " + this.lookups);
        }
    }

    /** Starts a job called {@code name} over the events of {@code schema}. */
    public static <S> Builder<S> builder(final String name, final EventSchema schema) {
        return new Builder<>(name, schema);
    }

    public String name() {
        return name;
    }

    /** This job under another name (its side maps follow the name; the maps its function writes do not). */
    public KeyedJob<S> named(final String newName) {
        return new KeyedJob<>(newName, schema, function, codec, policy, stateMaps, lookups);
    }

    public EventSchema schema() {
        return schema;
    }

    public KeyedFunction<S> function() {
        return function;
    }

    public StateCodec<S> codec() {
        return codec;
    }

    public TimePolicy policy() {
        return policy;
    }

    /** The maps the function declared it writes. */
    public List<String> stateMaps() {
        return stateMaps;
    }

    /** The dimension lookups made for every event, in order. */
    public List<Lookup> lookups() {
        return lookups;
    }

    /** Where events whose lookup key was missing go, for lookups with {@link Lookup.OnMissing#SIDE_OUTPUT}. */
    public String unmatchedMap() {
        return "unmatched." + name;
    }

    public String lateMap() {
        return "late." + name;
    }

    public String rejectedMap() {
        return "rejected." + name;
    }

    /** Builds a {@link KeyedJob}. */
    public static final class Builder<S> {
        private final String name;
        private final EventSchema schema;
        private KeyedFunction<S> function;
        private StateCodec<S> codec;
        private TimePolicy policy = TimePolicy.of(0, 0);
        private List<String> stateMaps = List.of();
        private final List<Lookup> lookups = new java.util.ArrayList<>();

        private Builder(final String name, final EventSchema schema) {
            this.name = name;
            this.schema = schema;
        }

        public Builder<S> function(final KeyedFunction<S> value) {
            function = value;
            return this;
        }

        public Builder<S> state(final StateCodec<S> value) {
            codec = value;
            return this;
        }

        /** Default: no disorder, no lateness, one day max future, no idle timeout. */
        public Builder<S> time(final TimePolicy value) {
            policy = Objects.requireNonNull(value, "time policy");
            return this;
        }

        /** The maps the function writes to. */
        public Builder<S> writes(final String... maps) {
            stateMaps = List.of(maps);
            return this;
        }

        /** Enriches every event from dimension map {@code map} by its field {@code keyField}; see {@link Lookup}. */
        public Builder<S> lookup(final String map, final String keyField, final Lookup.OnMissing onMissing) {
            lookups.add(new Lookup(map, keyField, onMissing));
            return this;
        }

        /** @throws IllegalArgumentException or NullPointerException naming what is missing or wrong */
        public KeyedJob<S> build() {
            return new KeyedJob<>(this);
        }
    }
}
