package io.streamgrid.sink.impl;

import com.hazelcast.core.HazelcastInstance;
import io.streamgrid.sink.CassandraSinks;

import java.util.concurrent.ConcurrentMap;

/**
 * The highest write timestamp each table was given by an exactly-once sink, kept in a cluster map
 * ({@value #MAP}, with the map's backups). A job's timestamp base is taken on a member when its
 * execution starts: {@code max(member clock, highest timestamp used + 1 ms)} — so a job submitted
 * later, from any host and whatever that host's clock says, writes above every earlier job; and a
 * member whose clock is behind still moves forward. Every commit reserves its timestamp here before
 * writing a row with it.
 *
 * <p>How far ahead of the clock: an execution's epochs add one {@link #EPOCH_STEP} each to its base,
 * and epochs are at least 10 ms apart (the shortest snapshot interval), so the timestamps fall behind
 * the clock while a job runs; a new base is at most one step above the last timestamp used. So a
 * restart adds at most 2 ms to the lead over the fastest clock among the members that took a base,
 * and every epoch after it takes 9 ms away: the lead does not grow with the number of restarts.
 *
 * <p>A restart of the whole cluster: with {@code persistence.jobs} the map is persisted with Jet's
 * job maps; without it the map starts empty, and a restored job still writes above its own snapshot
 * (see {@code CassandraSinkP#timestampOf}). A table written by other writers than this sink competes
 * with their timestamps.
 */
final class TimestampLedger {
    static final String MAP = CassandraSinks.TIMESTAMP_LEDGER_MAP;
    /** One epoch's share of the timestamp line, in µs: an execution's k-th epoch writes at {@code base + k * EPOCH_STEP}. */
    static final long EPOCH_STEP = 1_000;

    private TimestampLedger() {
    }

    static ConcurrentMap<String, Long> map(final HazelcastInstance hazelcast) {
        return hazelcast.getMap(MAP);
    }

    /** A new base for {@code table}, above everything used so far and at least {@code nowMicros}; reserved at once. */
    static long newBase(final ConcurrentMap<String, Long> ledger, final String table, final long nowMicros) {
        while (true) {
            final Long used = ledger.get(table);
            final long base = used == null ? nowMicros : Math.max(nowMicros, used + EPOCH_STEP);
            if (compareAndSet(ledger, table, used, base)) {
                return base;
            }
        }
    }

    /** Raises {@code table}'s highest used timestamp to {@code timestampMicros} if it is below. */
    static void reserve(final ConcurrentMap<String, Long> ledger, final String table, final long timestampMicros) {
        Long used;
        do {
            used = ledger.get(table);
        } while ((used == null || used < timestampMicros) && !compareAndSet(ledger, table, used, timestampMicros));
    }

    private static boolean compareAndSet(final ConcurrentMap<String, Long> ledger, final String table, final Long expected, final long value) {
        return expected == null ? ledger.putIfAbsent(table, value) == null : ledger.replace(table, expected, value);
    }
}
