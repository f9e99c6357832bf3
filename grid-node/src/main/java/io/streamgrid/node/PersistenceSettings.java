package io.streamgrid.node;

import io.streamgrid.node.impl.HazelcastConfigFactory;
import io.streamgrid.sink.CassandraTarget;

import java.util.List;
import java.util.Objects;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Which state maps survive a restart of the whole cluster, and how: each persisted map is written
 * to one Cassandra table through a Hazelcast MapStore and loaded back when members start.
 *
 * @param enabled           false: state lives in member memory only (with its backups)
 * @param maps              map name patterns, each a name with at most one {@code *} (Hazelcast's
 *                          wildcard), e.g. {@code state.*}; every one must be a state map
 *                          ({@code state.} prefix) or a jobs' side output ({@code late.},
 *                          {@code rejected.}), whose rows expire with the map's time to live
 * @param writeMode         when a write reaches Cassandra
 * @param writeDelaySeconds write-behind only: a change is written this long after it was made
 *                          (later changes of the same key within the delay are written once)
 * @param writeBatchSize    write-behind only: at most this many entries per store call
 * @param initialLoad       when the entries come back after a restart
 * @param cassandra         the Cassandra cluster and keyspace (the {@code cassandra} section)
 * @param table             the table in that keyspace holding every persisted map's entries
 * @param jobs              true: Jet's jobs survive too — their records, resources and snapshots are
 *                          written to the same table, write-through, and a cluster started again
 *                          resumes every job from its last completed snapshot without resubmission;
 *                          a snapshot completes only once the write-behind changes of persisted maps
 *                          that the job wrote before it are in Cassandra (see {@code StateWriterP})
 */
public record PersistenceSettings(boolean enabled, List<String> maps, WriteMode writeMode, int writeDelaySeconds,
                                  int writeBatchSize, InitialLoad initialLoad, CassandraTarget cassandra, String table,
                                  boolean jobs) {

    private static final Pattern CQL_NAME = Pattern.compile("[a-z][a-z0-9_]{0,47}");
    /** The kinds of map that can be persisted: state maps and the jobs' side outputs (late events, rejected records). */
    private static final List<String> PERSISTABLE = Stream.concat(Stream.of(HazelcastConfigFactory.STATE_MAP_PATTERN),
            HazelcastConfigFactory.SIDE_MAP_PATTERNS.stream()).map(pattern -> pattern.substring(0, pattern.indexOf('.') + 1)).toList();

    /** When a change of a persisted map is written to Cassandra. */
    public enum WriteMode {
        /**
         * The write returns once Cassandra has it: a crash of every member loses nothing that was
         * acknowledged. Every write waits for a Cassandra round trip.
         */
        WRITE_THROUGH,
        /**
         * The write returns at once; changes are written in batches after the delay, coalesced per
         * key. A member crash loses nothing (the queue of changes has backups); a crash of every
         * member at once loses the changes of the last delay and whatever Cassandra was behind.
         */
        WRITE_BEHIND
    }

    /** When a persisted map's entries are read back from Cassandra. */
    public enum InitialLoad {
        /** At member start, every persisted map; progress is logged. */
        EAGER,
        /** When the map is first used; its first operation waits for the whole map. */
        LAZY
    }

    public PersistenceSettings {
        maps = List.copyOf(maps);
        Objects.requireNonNull(writeMode, "writeMode");
        Objects.requireNonNull(initialLoad, "initialLoad");
        Objects.requireNonNull(cassandra, "cassandra");
        if (jobs && !enabled) {
            throw new ConfigException("persistence.jobs is true but persistence.enabled is false: jobs survive a restart of the"
                    + " whole cluster only together with their state maps; set persistence.enabled: true");
        }
        if (enabled && maps.isEmpty()) {
            throw new ConfigException("persistence.maps is empty: list the state maps to persist, e.g. [\"state.*\"]");
        }
        for (final String map : maps) {
            if (PERSISTABLE.stream().noneMatch(map::startsWith) || map.indexOf('*') != map.lastIndexOf('*')) {
                throw new ConfigException("persistence.maps: '" + map + "' is not a state map or side output name or pattern: it"
                        + " must start with one of " + PERSISTABLE + " and have at most one '*', e.g. state.*, state.positions or late.*");
            }
        }
        if (writeDelaySeconds < 1 || writeDelaySeconds > 3600) {
            throw new ConfigException("persistence.write-delay-seconds is " + writeDelaySeconds + ": it must be from 1 to 3600"
                    + " (for no delay choose write-mode: write-through)");
        }
        if (writeBatchSize < 1 || writeBatchSize > 100_000) {
            throw new ConfigException("persistence.write-batch-size is " + writeBatchSize + ": it must be from 1 to 100000");
        }
        if (table == null || !CQL_NAME.matcher(table).matches()) {
            throw new ConfigException("persistence.table is '" + table + "': give a Cassandra table name"
                    + " (lower-case letters, digits and _, starting with a letter, at most 48)");
        }
    }
}
