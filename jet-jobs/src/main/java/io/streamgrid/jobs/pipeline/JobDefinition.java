package io.streamgrid.jobs.pipeline;

import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.sink.CassandraTarget;

import java.io.Serializable;
import java.util.List;
import java.util.Optional;

/**
 * What every StreamGrid job is, whatever its shape: a name, the schemas whose logs it reads, and
 * the maps it writes. The shapes are {@link io.streamgrid.jobs.keyed.KeyedJob} (your function per
 * key, with state and timers) and {@link WindowedJob} (window aggregates per key); both run on the
 * same runtime and both can be the {@link io.streamgrid.jobs.keyed.StreamGridJob} of your jar.
 */
public interface JobDefinition extends Serializable {
    /** The job's name, also the suffix of its side maps. */
    String name();

    /** The schemas it reads, the first one first. */
    List<EventSchema> schemas();

    /**
     * Every schema the job declares — those it reads, then those it emits and whose records it looks
     * up — so that a tool given the job ({@code streamgrid ingest load --schema NAME --jar FILE
     * --class C}) needs no second declaration of them.
     */
    default List<EventSchema> declaredSchemas() {
        return schemas();
    }

    /**
     * The schemas whose logs it emits events into, in its results' order; none by default. Such a
     * log is clocked by the job's partitions ({@link io.streamgrid.jobs.schema.SchemaLayout#KIND_WRITER_CLOCK}):
     * a job reading it follows the slowest of them and ends when they all have.
     */
    default List<EventSchema> emits() {
        return List.of();
    }

    /**
     * What every job that emits checks when it is built: each emitted schema once, none of them one
     * it reads.
     *
     * @throws IllegalArgumentException naming job {@code name} and the schema
     */
    static void checkEmits(final String name, final List<EventSchema> reads, final List<EventSchema> emits) {
        for (final EventSchema schema : emits) {
            java.util.Objects.requireNonNull(schema, "emitted schema of job " + name);
            if (reads.stream().anyMatch(read -> read.name().equals(schema.name()))) {
                throw new IllegalArgumentException("job " + name + " both reads and emits schema " + schema.name()
                        + ": a job feeding itself would read its own output forever; emit into another schema");
            }
        }
        if (emits.stream().map(EventSchema::name).distinct().count() != emits.size()) {
            throw new IllegalArgumentException("job " + name + " emits a schema twice: " + emits.stream().map(EventSchema::name).toList());
        }
    }

    /** The {@code state.*} maps it writes. */
    List<String> stateMaps();

    /** Events beyond the allowed lateness, with the reason. */
    String lateMap();

    /** Records that are not valid events, with the reason. */
    String rejectedMap();

    /** Every side map it may write, each with the reason for what it holds: by default {@link #lateMap()} and {@link #rejectedMap()}. */
    default List<String> sideMaps() {
        return List.of(lateMap(), rejectedMap());
    }

    /**
     * The Cassandra tables this job writes exactly-once when asked ({@code streamgrid job submit NAME
     * --cassandra}), in the cluster and keyspace of {@code target}; empty, the default, for a job that
     * declares none (the CLI then refuses {@code --cassandra} for it).
     */
    default Optional<CassandraOutput> cassandraOutput(final CassandraTarget target) {
        return Optional.empty();
    }
}
