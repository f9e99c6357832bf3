package io.streamgrid.jobs.join;

import io.streamgrid.jobs.schema.SchemaRecord;

import java.io.Serializable;

/**
 * What a stream join does with each pair it finds: write a result ({@link JoinContext#put}) or emit
 * an event ({@link JoinContext#emit}). Called once per pair of a left and a right event of the same
 * key that the join's rule matches, as soon as the later of the two has arrived — each pair exactly
 * once, also across restores from snapshots. Deterministic, as a {@link io.streamgrid.jobs.keyed.KeyedFunction}
 * must be: the same pair must give the same writes.
 */
@FunctionalInterface
public interface JoinFunction extends Serializable {
    /**
     * One matched pair. Both records are flyweights valid only during the call: copy out what you
     * keep. An exception fails the job (it is then suspended with its last snapshot).
     */
    void onPair(SchemaRecord left, SchemaRecord right, JoinContext context);
}
