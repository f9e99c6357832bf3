package io.streamgrid.jobs.pipeline;

import io.streamgrid.jobs.schema.EventSchema;

import java.io.Serializable;
import java.util.List;

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

    /** The {@code state.*} maps it writes. */
    List<String> stateMaps();

    /** Events beyond the allowed lateness, with the reason. */
    String lateMap();

    /** Records that are not valid events, with the reason. */
    String rejectedMap();
}
