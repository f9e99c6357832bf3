package io.streamgrid.jobs.keyed;

import io.streamgrid.jobs.pipeline.JobDefinition;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.FieldType;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A keyed job: the events of one schema — or of several schemas co-partitioned by the same key
 * ({@link Builder#alsoReads}: trades and quotes by symbol, temperature and pressure by machine) —
 * grouped by key, through a {@link KeyedFunction} with per-key state and timers. Events of several
 * schemas reach the function merged in event-time order, deterministically (see
 * {@link Builder#alsoReads}). Immutable; it travels to the members inside
 * the Jet job, so the function and codec must be serializable (and their classes on the members'
 * class path or in the job's jar).
 *
 * <p>Maps it writes: those its function writes to (declare them with {@link Builder#writes}, so
 * that state TTLs and Cassandra bindings can be checked against them), {@code late.<name>} (events
 * beyond the allowed lateness, see {@link io.streamgrid.jobs.pipeline.LateEvent}) and
 * {@code rejected.<name>} (records that are not valid events of the schema) and, with lookups that
 * side-output missing keys, {@code unmatched.<name>}. Logs it writes: those of the schemas it
 * emits events of ({@link Builder#emits}), exactly once across restores.
 *
 * @param <S> the per-key state
 */
public final class KeyedJob<S> implements JobDefinition {
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9-]{0,62}");

    private final String name;
    private final List<EventSchema> schemas;
    private final KeyedFunction<S> function;
    private final StateCodec<S> codec;
    private final TimePolicy policy;
    private final List<String> stateMaps;
    private final List<Lookup> lookups;
    private final List<String> reads;
    private final List<EventSchema> emits;
    private final List<SideOutput<?>> sideOutputs;
    private final boolean eventTimeOrder;
    private final Ttl stateTtl;

    /** A state time-to-live: {@code ms} (0: none) of event time, or of the wall clock. */
    private record Ttl(long ms, boolean processingTime) implements java.io.Serializable {
    }

    private KeyedJob(final Builder<S> builder) {
        this(builder.name, builder.schemas, builder.function, builder.codec, builder.policy, builder.stateMaps, builder.lookups,
                builder.reads, builder.emits, builder.sideOutputs, builder.eventTimeOrder, builder.stateTtl);
    }

    private KeyedJob(final String name, final List<EventSchema> schemas, final KeyedFunction<S> function, final StateCodec<S> codec,
                     final TimePolicy policy, final List<String> stateMaps, final List<Lookup> lookups, final List<String> reads,
                     final List<EventSchema> emits, final List<SideOutput<?>> sideOutputs, final boolean eventTimeOrder,
                     final Ttl stateTtl) {
        this.name = name;
        this.eventTimeOrder = eventTimeOrder;
        this.stateTtl = stateTtl;
        schemas.forEach(schema -> Objects.requireNonNull(schema, "schema of job " + name));
        this.schemas = List.copyOf(schemas);
        this.function = Objects.requireNonNull(function, "function of job " + name);
        this.codec = Objects.requireNonNull(codec, "state codec of job " + name);
        this.policy = policy;
        this.stateMaps = List.copyOf(stateMaps);
        this.lookups = List.copyOf(lookups);
        this.reads = List.copyOf(reads);
        this.emits = List.copyOf(emits);
        this.sideOutputs = List.copyOf(sideOutputs);
        if (name == null || !NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("job name '" + name
                    + "' must be lower-case letters, digits and -, starting with a letter, at most 63 characters");
        }
        KeyedJobChecks.check(this);
    }

    /** Starts a job called {@code name} over the events of {@code schema}. */
    public static <S> Builder<S> builder(final String name, final EventSchema schema) {
        return new Builder<>(name, schema);
    }

    @Override
    public String name() {
        return name;
    }

    /**
     * This job with another function of the same state, schemas, maps and time rules: for a wrapper
     * around {@link #function()} that counts, traces or times what it does (perf's fraud-scoring
     * benchmark counts its results so). The new function must read and write what the old one did.
     */
    public KeyedJob<S> withFunction(final KeyedFunction<S> other) {
        return new KeyedJob<>(name, schemas, other, codec, policy, stateMaps, lookups, reads, emits, sideOutputs, eventTimeOrder,
                stateTtl);
    }

    /** This job under another name (its side maps follow the name; the maps its function writes do not). */
    public KeyedJob<S> named(final String newName) {
        return new KeyedJob<>(newName, schemas, function, codec, policy, stateMaps, lookups, reads, emits, sideOutputs, eventTimeOrder,
                stateTtl);
    }

    /** The (first) schema the job reads. */
    public EventSchema schema() {
        return schemas.get(0);
    }

    /** Every schema the job reads, the first one first; all keyed alike and partitioned alike. */
    @Override
    public List<EventSchema> schemas() {
        return schemas;
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
    @Override
    public List<String> stateMaps() {
        return stateMaps;
    }

    /** The dimension lookups made for every event, in order. */
    public List<Lookup> lookups() {
        return lookups;
    }

    /** Dimension maps the function reads by key ({@link KeyedContext#lookup(String, Object)}) without a lookup per event. */
    public List<String> reads() {
        return reads;
    }

    /** Every dimension map the job replicates on each member: its lookups' maps in order, then the maps it reads. */
    public List<String> dimensionMaps() {
        final List<String> maps = new java.util.ArrayList<>(lookups.stream().map(Lookup::map).toList());
        maps.addAll(reads);
        return List.copyOf(maps);
    }

    @Override
    public List<EventSchema> declaredSchemas() {
        final java.util.LinkedHashSet<EventSchema> all = new java.util.LinkedHashSet<>(schemas);
        all.addAll(emits);
        lookups.stream().map(Lookup::valueSchema).filter(Objects::nonNull).forEach(all::add);
        return List.copyOf(all);
    }

    /** The schemas whose logs the function emits events into ({@link KeyedContext#emit}). */
    @Override
    public List<EventSchema> emits() {
        return emits;
    }

    /** Whether the function sees events in event-time order ({@link Builder#inEventTimeOrder}); else in log (merge) order. */
    public boolean eventTimeOrder() {
        return eventTimeOrder;
    }

    /**
     * A key's state time-to-live ({@link Builder#stateTtl}, {@link Builder#stateTtlInProcessingTime}); 0: kept until the
     * function clears it.
     */
    public long stateTtlMs() {
        return stateTtl.ms();
    }

    /** Whether {@link #stateTtlMs()} is wall-clock time ({@link Builder#stateTtlInProcessingTime}) rather than event time. */
    public boolean stateTtlInProcessingTime() {
        return stateTtl.processingTime();
    }

    /** Where events whose lookup key was missing go, for lookups with {@link Lookup.OnMissing#SIDE_OUTPUT}. */
    public String unmatchedMap() {
        return "unmatched." + name;
    }

    /** The typed side outputs the function writes ({@link KeyedContext#output}). */
    public List<SideOutput<?>> sideOutputs() {
        return sideOutputs;
    }

    /**
     * Late and rejected events, with a lookup that side-outputs a missing key {@link #unmatchedMap()},
     * then the maps of the job's {@link #sideOutputs()}.
     */
    @Override
    public List<String> sideMaps() {
        final List<String> maps = new java.util.ArrayList<>(List.of(lateMap(), rejectedMap()));
        if (!lookups.isEmpty()) {
            maps.add(unmatchedMap());
        }
        sideOutputs.forEach(output -> maps.add(output.map()));
        return List.copyOf(maps);
    }

    @Override
    public String lateMap() {
        return "late." + name;
    }

    @Override
    public String rejectedMap() {
        return "rejected." + name;
    }

    /** Builds a {@link KeyedJob}. */
    public static final class Builder<S> {
        private final String name;
        private final List<EventSchema> schemas = new java.util.ArrayList<>();
        private KeyedFunction<S> function;
        private StateCodec<S> codec;
        private TimePolicy policy = TimePolicy.of(0, 0);
        private List<String> stateMaps = List.of();
        private final List<Lookup> lookups = new java.util.ArrayList<>();
        private final List<String> reads = new java.util.ArrayList<>();
        private final List<EventSchema> emits = new java.util.ArrayList<>();
        private final List<SideOutput<?>> sideOutputs = new java.util.ArrayList<>();
        private boolean eventTimeOrder;
        private Ttl stateTtl = new Ttl(0, false);

        private Builder(final String name, final EventSchema schema) {
            this.name = name;
            this.schemas.add(schema);
        }

        /**
         * Also reads the events of {@code more}, co-partitioned with the first schema by key: the
         * same key type, their logs with the same partition count (checked when the job starts).
         * Each partition's events of all the schemas reach the function merged by event time (the
         * event's schema: {@code event.layout().schema()}), ties in the order the schemas are
         * declared — the same order on every replay. A schema with nothing new holds the others
         * back until its next event, its end of stream, or a heartbeat after the time policy's idle
         * timeout (required here); see the guide for what that means for late data.
         */
        public Builder<S> alsoReads(final EventSchema... more) {
            schemas.addAll(List.of(more));
            return this;
        }

        public Builder<S> function(final KeyedFunction<S> value) {
            function = value;
            return this;
        }

        /**
         * The function, for a schema with a long key: its context has the key as a long only.
         *
         * @throws IllegalArgumentException when the job's schema has a string key, naming it
         */
        public Builder<S> longKeyed(final LongKeyedFunction<S> value) {
            requireKey(FieldType.LONG, "longKeyed", "stringKeyed");
            function = new KeyTypedFunctionAdapter<S>(Objects.requireNonNull(value, "function of job " + name));
            return this;
        }

        /**
         * The function, for a schema with a string key: its context has the key as a string only.
         *
         * @throws IllegalArgumentException when the job's schema has a long key, naming it
         */
        public Builder<S> stringKeyed(final StringKeyedFunction<S> value) {
            requireKey(FieldType.STRING, "stringKeyed", "longKeyed");
            function = new KeyTypedFunctionAdapter<S>(Objects.requireNonNull(value, "function of job " + name));
            return this;
        }

        private void requireKey(final FieldType type, final String asked, final String instead) {
            final EventSchema schema = schemas.get(0);
            final FieldType key = schema.field(schema.keyField()).type();
            if (key != type) {
                throw new IllegalArgumentException("job " + name + ": schema " + schema.name() + " is keyed by " + key.yamlName()
                        + " field " + schema.keyField() + ", so its function is " + instead + ", not " + asked);
            }
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

        /**
         * Enriches every event from dimension map {@code map} by its field {@code keyField}, with
         * the version valid at the event's time: a temporal join, so replays and restored jobs see
         * what the live run saw; see {@link Lookup} for how the map holds versions.
         */
        public Builder<S> lookupAsOfEventTime(final String map, final String keyField, final Lookup.OnMissing onMissing) {
            lookups.add(new Lookup(map, keyField, onMissing, true, null));
            return this;
        }

        /**
         * As {@link #lookup(String, String, Lookup.OnMissing)}, the map's values records of
         * {@code valueSchema}, read with its field handles from {@link KeyScope#lookupRecord(String)}
         * (values {@code streamgrid dim load} writes, or any client as {@link io.streamgrid.jobs.schema.SchemaRecord#toBytes()}).
         */
        public Builder<S> lookup(final String map, final String keyField, final EventSchema valueSchema,
                                 final Lookup.OnMissing onMissing) {
            lookups.add(new Lookup(map, keyField, onMissing, false, Objects.requireNonNull(valueSchema, "valueSchema")));
            return this;
        }

        /**
         * As {@link #lookupAsOfEventTime(String, String, Lookup.OnMissing)}, the versions records of
         * {@code valueSchema}, read from {@link KeyScope#lookupRecord(String)}.
         */
        public Builder<S> lookupAsOfEventTime(final String map, final String keyField, final EventSchema valueSchema,
                                              final Lookup.OnMissing onMissing) {
            lookups.add(new Lookup(map, keyField, onMissing, true, Objects.requireNonNull(valueSchema, "valueSchema")));
            return this;
        }

        /**
         * Dimension maps ({@code dim.*}) the function reads by key with
         * {@link KeyedContext#lookup(String, Object)} — model weights, configuration — from the
         * member's replica, as a {@link Lookup} does, but with no lookup made per event.
         */
        public Builder<S> reads(final String... maps) {
            reads.addAll(List.of(maps));
            return this;
        }

        /**
         * Schemas the function emits events of ({@link KeyedContext#newEvent}, {@link KeyedContext#emit})
         * into their logs under the job's ingest directory — created with the partition count of the
         * job's first log when absent — for other jobs to read: a feedback stream, a derived stream.
         * Exactly once across restores, given a deterministic function (see {@link KeyedContext#emit}).
         * One job emits into a log; a replay emits into {@code <schema>.<suffix>} beside it.
         */
        public Builder<S> emits(final EventSchema... schemas) {
            emits.addAll(List.of(schemas));
            return this;
        }

        /** Typed side outputs the function writes with {@link KeyedContext#output}: see {@link SideOutput}. */
        public Builder<S> sideOutputs(final SideOutput<?>... outputs) {
            sideOutputs.addAll(List.of(outputs));
            return this;
        }

        /**
         * The function sees each partition's events in event-time order: an event ahead of the
         * watermark is held (a copy, in the job's snapshot) until the watermark reaches its time,
         * then delivered; events released together come by event time, then the order the
         * schemas are declared, then arrival, and before the event-time timers of their time. An
         * event at or behind the watermark (within the allowed lateness) is delivered at once, with
         * {@link KeyedContext#isLate()} true when behind. Costs a copy per event held and a delay of
         * the allowed disorder; spares a function that needs order — a sequence pattern — buffering
         * and a timer per key. Default: events come in log order (merged by event time across
         * schemas, disorder and all).
         */
        public Builder<S> inEventTimeOrder() {
            eventTimeOrder = true;
            return this;
        }

        /**
         * Each key's state expires {@code ms} of event time after it was last written
         * ({@link KeyedContext#setState}; at the watermark for a processing-time timer): once the
         * partition's watermark has passed that, the function sees no state for the key at its next
         * event or timer, and a key left with no state and no timer is dropped from memory. Event time,
         * so a replay and a restored job expire exactly the same states. Timers are not affected.
         * Default 0: a state stays until the function clears it. Replaces a TTL set before.
         */
        public Builder<S> stateTtl(final long ms) {
            stateTtl = new Ttl(checkedTtl(ms), false);
            return this;
        }

        /**
         * Each key's state expires {@code ms} of wall-clock time after it was last written: the
         * function sees no state for the key at its next event or timer once the member's clock has
         * passed that, and a sweep every {@code ms} drops keys left with nothing. The write times
         * are in the job's snapshots, so a restored job counts the time it was down. Not
         * deterministic: a replay expires different states — {@link #stateTtl} is the replayable
         * one. Replaces a TTL set before.
         */
        public Builder<S> stateTtlInProcessingTime(final long ms) {
            stateTtl = new Ttl(checkedTtl(ms), true);
            return this;
        }

        private long checkedTtl(final long ms) {
            if (ms < 0) {
                throw new IllegalArgumentException("job " + name + ": stateTtl must be >= 0 (0: none), was " + ms);
            }
            return ms;
        }

        /** @throws IllegalArgumentException or NullPointerException naming what is missing or wrong */
        public KeyedJob<S> build() {
            return new KeyedJob<>(this);
        }
    }
}
