package io.streamgrid.jobs.join;

import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;

/**
 * What a {@link JoinFunction} sees and does for the pair it is called for: the key both events
 * share, and the outputs a keyed job has. Valid only during the call.
 */
public interface JoinContext {
    /** The pair's key, for schemas with a long key. @throws IllegalStateException for a string key */
    long longKey();

    /** The pair's key, for schemas with a string key. */
    String stringKey();

    /**
     * Writes {@code value} under {@code key} to {@code map}, one the join declares
     * ({@link StreamJoin.Builder#writes}); as {@link io.streamgrid.jobs.keyed.KeyedContext#put}.
     */
    void put(String map, Object key, Object value);

    /** Removes {@code key} from {@code map}, one the join declares. */
    void remove(String map, Object key);

    /** A blank event of {@code schema}, one the join emits ({@link StreamJoin.Builder#emits}); fill it, then {@link #emit} it. */
    SchemaRecord newEvent(EventSchema schema);

    /** Appends {@code event} to its schema's log exactly once, as {@link io.streamgrid.jobs.keyed.KeyedContext#emit}. */
    void emit(SchemaRecord event);
}
