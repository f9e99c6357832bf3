package io.streamgrid.sink.impl;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;

/**
 * The highest write timestamp each table was given by an exactly-once sink, kept in a cluster map
 * ({@value #MAP}, with the map's backups). A job's timestamp base is taken on a member when its
 * execution starts: {@code max(member clock, highest timestamp used + 1 ms)} — so a job submitted
 * later, from any host and whatever that host's clock says, writes above every earlier job; and a
 * member whose clock is behind still moves forward. Every commit reserves its timestamp here before
 * writing a row with it.
 *
 * <p>What it cannot cover: a restart of the whole cluster loses the map, and then the member clock
 * alone decides (as before); a table written by other writers than this sink competes with their
 * timestamps.
 */
final class TimestampLedger {
    static final String MAP = "streamgrid.sink-timestamps";
    /** One epoch's share of the timestamp line, in µs: epoch e writes at {@code base + e * EPOCH_STEP}. */
    static final long EPOCH_STEP = 1_000;

    private TimestampLedger() {
    }

    static IMap<String, Long> map(final HazelcastInstance hazelcast) {
        return hazelcast.getMap(MAP);
    }

    /** A new base for {@code table}, above everything used so far and at least {@code nowMicros}; reserved at once. */
    static long newBase(final IMap<String, Long> ledger, final String table, final long nowMicros) {
        while (true) {
            final Long used = ledger.get(table);
            final long base = used == null ? nowMicros : Math.max(nowMicros, used + EPOCH_STEP);
            if (compareAndSet(ledger, table, used, base)) {
                return base;
            }
        }
    }

    /** Raises {@code table}'s highest used timestamp to {@code timestampMicros} if it is below. */
    static void reserve(final IMap<String, Long> ledger, final String table, final long timestampMicros) {
        Long used;
        do {
            used = ledger.get(table);
        } while ((used == null || used < timestampMicros) && !compareAndSet(ledger, table, used, timestampMicros));
    }

    private static boolean compareAndSet(final IMap<String, Long> ledger, final String table, final Long expected, final long value) {
        return expected == null ? ledger.putIfAbsent(table, value) == null : ledger.replace(table, expected, value);
    }
}
