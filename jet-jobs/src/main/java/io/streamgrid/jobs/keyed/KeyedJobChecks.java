package io.streamgrid.jobs.keyed;

import io.streamgrid.jobs.pipeline.JobDefinition;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.FieldType;

import java.util.List;
import java.util.Objects;

/** What a {@link KeyedJob} checks when it is built: every refusal names the job and what is wrong. */
final class KeyedJobChecks {
    private KeyedJobChecks() {
    }

    /** @throws IllegalArgumentException or NullPointerException naming what is wrong with {@code job} */
    static void check(final KeyedJob<?> job) {
        final String name = job.name();
        checkSchemas(name, job.schemas(), job.policy());
        for (final Lookup lookup : job.lookups()) {
            for (final EventSchema schema : job.schemas()) {
                final FieldType type = schema.field(lookup.keyField()).type();
                if (type != FieldType.STRING && type != FieldType.LONG && type != FieldType.INT && type != FieldType.TIMESTAMP) {
                    throw new IllegalArgumentException("job " + name + ": lookup in " + lookup.map() + " by field " + lookup.keyField()
                            + " of schema " + schema.name() + ", which is " + type.yamlName()
                            + ": look up by a string, int, long or timestamp field");
                }
            }
        }
        if (job.lookups().stream().map(Lookup::map).distinct().count() != job.lookups().size()) {
            throw new IllegalArgumentException("job " + name + " looks up the same map twice: " + job.lookups());
        }
        checkReadsAndEmits(name, job.schemas(), job.lookups(), job.reads(), job.emits());
        checkSideOutputs(job);
    }

    /** Side outputs: each map once, none of them a map the function writes or one of the job's own side maps. */
    private static void checkSideOutputs(final KeyedJob<?> job) {
        final String name = job.name();
        final List<String> taken = new java.util.ArrayList<>(job.stateMaps());
        taken.addAll(List.of(job.lateMap(), job.rejectedMap(), job.unmatchedMap()));
        for (final SideOutput<?> output : job.sideOutputs()) {
            if (taken.contains(Objects.requireNonNull(output, "side output of job " + name).map())) {
                throw new IllegalArgumentException("job " + name + ": side output " + output.map() + " is already a map the job "
                        + "writes (" + taken + "): give it a map of its own");
            }
            taken.add(output.map());
        }
    }

    /** Dimension maps read by key: named dim.*, once each; emitted schemas: once each, none of them read by the job. */
    private static void checkReadsAndEmits(final String name, final List<EventSchema> schemas, final List<Lookup> lookups,
                                           final List<String> reads, final List<EventSchema> emits) {
        for (final String map : reads) {
            Lookup.checkDimensionMap(Objects.requireNonNull(map, "dimension map of job " + name));
            if (lookups.stream().anyMatch(lookup -> lookup.map().equals(map)) || reads.indexOf(map) != reads.lastIndexOf(map)) {
                throw new IllegalArgumentException("job " + name + " declares dimension map " + map + " twice");
            }
        }
        JobDefinition.checkEmits(name, schemas, emits);
    }

    /** Several schemas: distinct, keyed alike, and an idle timeout so that a quiet one cannot hold the others back forever. */
    private static void checkSchemas(final String name, final List<EventSchema> schemas, final TimePolicy policy) {
        final EventSchema first = schemas.get(0);
        final FieldType keyType = first.field(first.keyField()).type();
        for (final EventSchema other : schemas.subList(1, schemas.size())) {
            if (other.field(other.keyField()).type() != keyType) {
                throw new IllegalArgumentException("job " + name + " reads schemas " + first.name() + " and " + other.name()
                        + " by key, but their keys are " + keyType.yamlName() + " and " + other.field(other.keyField()).type().yamlName()
                        + ": co-partitioned schemas need keys of one type");
            }
        }
        if (schemas.stream().map(EventSchema::name).distinct().count() != schemas.size()) {
            throw new IllegalArgumentException("job " + name + " reads a schema twice: "
                    + schemas.stream().map(EventSchema::name).toList());
        }
        if (schemas.size() > 1 && policy.idleTimeoutMs() <= 0) {
            throw new IllegalArgumentException("job " + name + " reads " + schemas.size() + " schemas: give its time policy an "
                    + "idle timeout (TimePolicy.withIdleTimeout), or a schema with no new events would hold the others back forever");
        }
    }
}
