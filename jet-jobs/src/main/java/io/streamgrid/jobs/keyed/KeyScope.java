package io.streamgrid.jobs.keyed;

import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;

/**
 * What a keyed function sees and does for the key it is called for, the key itself aside: its
 * state, time, timers, lookups and outputs. Valid only during the call; not thread-safe. The key
 * comes with {@link LongKeyContext} or {@link StringKeyContext} (typed by the schema: a function
 * of one kind cannot ask for the other kind's key), or with {@link KeyedContext} (both, one of them
 * throwing).
 *
 * @param <S> the per-key state
 */
public interface KeyScope<S> {
    /** The key's state, or null when it has none. Mutate it in place or replace it with {@link #setState}. */
    S state();

    void setState(S state);

    /** Drops the key's state. A key without state and timers takes no memory. */
    void clearState();

    /** The event's time in {@code onEvent}; the timer's time in {@code onTimer}. */
    long time();

    /** The partition's watermark before this event (Long.MIN_VALUE before the first event). */
    long watermark();

    /** Whether this event is behind the watermark (within the allowed lateness): a correction. */
    boolean isLate();

    /**
     * The value the job's {@link Lookup} in {@code map} found for this event (see there for what an
     * event sees while the dimension changes); null when the key was missing and the lookup's policy
     * is {@link Lookup.OnMissing#NULL}, and in {@code onTimer}.
     *
     * @throws IllegalArgumentException when the job declares no lookup in {@code map}
     */
    <V> V lookup(String map);

    /**
     * The record the job's lookup of records in {@code map} ({@link KeyedJob.Builder#lookup(String,
     * String, EventSchema, Lookup.OnMissing)}) found for this event, read with the value schema's
     * field handles; valid only during this call (copy what you keep). Null as for
     * {@link #lookup(String)}, and when the value found was not a record of the schema.
     *
     * @throws IllegalArgumentException when the job declares no lookup of records in {@code map}
     */
    SchemaRecord lookupRecord(String map);

    /**
     * The value of {@code key} in a dimension map the job declares a lookup in or reads
     * ({@link KeyedJob.Builder#reads}), from the member's replica; null when absent.
     *
     * @throws IllegalArgumentException when the job declares neither for {@code map}
     */
    <V> V lookup(String map, Object key);

    /**
     * Registers an event-time timer of this key at {@code time}: {@code onTimer} is called once the
     * watermark reaches it (at once, after this call returns, if it already has). One timer per key
     * and time: registering it again does nothing.
     */
    void registerTimer(long time);

    void deleteTimer(long time);

    /** Registers a processing-time timer at wall-clock {@code wallClockMs} (not deterministic on replay). */
    void registerProcessingTimer(long wallClockMs);

    void deleteProcessingTimer(long wallClockMs);

    /**
     * Writes {@code value} under {@code key} to the map {@code map}, one the job declares
     * ({@link KeyedJob.Builder#writes}). Values go to the map in the order written; a later write
     * to a key wins. Use Java records or Compact-serializable classes so any client can read them.
     *
     * @throws IllegalArgumentException for a map the job does not declare (the job then fails, naming it)
     */
    void put(String map, Object key, Object value);

    /**
     * Writes {@code value} under {@code key} to the side output {@code output}, one the job declares
     * ({@link KeyedJob.Builder#sideOutputs}); as {@link #put}, a later write to a key wins.
     *
     * @throws IllegalArgumentException for an output the job does not declare, or a value that is not
     *                                  of its type (a raw-typed call), naming both (the job then fails)
     */
    <V> void output(SideOutput<V> output, Object key, V value);

    /** Removes {@code key} from the map {@code map}, one the job declares; as {@link #put}, refused for another. */
    void remove(String map, Object key);

    /**
     * A blank event of {@code schema} (one the job emits, {@link KeyedJob.Builder#emits}) to fill
     * and pass to {@link #emit}: zeroed, header written. The same record for every call with the
     * schema — fill it and emit it before asking again.
     *
     * @throws IllegalArgumentException when the job does not declare that it emits {@code schema}
     */
    SchemaRecord newEvent(EventSchema schema);

    /**
     * Appends {@code event} (from {@link #newEvent}) to the log of its schema, in the partition of
     * its key; other jobs read it like any event. Exactly once: a job restored from a snapshot emits
     * again what it emitted after that snapshot, and readers drop those repeats — the n-th event a
     * partition of this job emits counts as emitted once, however often the job is restored. That
     * holds when the function is deterministic (see {@link KeyedFunction}): a replay must emit the
     * same events in the same order; if it emits different ones, the first run's stay in the log.
     *
     * @throws IllegalArgumentException when the event is not valid (a field out of range, a string
     *                                  too long), naming why — a bug in the function, so the job fails
     */
    void emit(SchemaRecord event);
}
