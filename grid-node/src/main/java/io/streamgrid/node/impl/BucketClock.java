package io.streamgrid.node.impl;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.hazelcast.internal.partition.IPartition;
import com.hazelcast.internal.partition.IPartitionService;

/**
 * The write timestamps of the state table, per bucket (a Hazelcast partition): they grow with the
 * bucket wherever it moves, not with the clock of whichever member owns it now. Cassandra keeps, of
 * two writes of a row, the one with the higher timestamp; with the members' own clocks a new owner
 * whose clock is behind the old one's (after a migration or a failover) wrote updates and deletes
 * that Cassandra ignored — visible only after a full restart, when the old values came back.
 *
 * <p>How: a member issues a bucket's timestamps from {@code max(wall clock, last issued + 1)}, and
 * only below a <em>lease</em> it has first written to {@code <table>_clock} (one row per bucket, the
 * lease {@value #LEASE_MICROS} µs past the timestamp that needed it, written with itself as its
 * write timestamp so that the row keeps the highest lease ever written). Every timestamp issued for
 * a bucket is therefore below its stored lease. When the bucket's partition has changed since the
 * member last looked (its replicas moved: a migration, a promotion, this member's start), the member
 * reads the stored lease first and issues above it: above everything any earlier owner issued, in
 * this cluster or in one that ran before a whole-cluster restart. Cost: one lease write per bucket
 * and second of writes, one lease read per bucket after each change of its partition.
 *
 * <p>Thread-safe: one lock per bucket (the lease write, when due, happens under it).
 */
final class BucketClock {
    /** How far past the timestamp that needed it a lease reaches: one lease write per second of writes. */
    static final long LEASE_MICROS = 1_000_000;

    private final CqlSession session;
    private final PreparedStatement selectLease;
    private final PreparedStatement insertLease;
    private final IPartitionService partitions;
    private final Bucket[] buckets;
    /** The clock of rows that belong to no bucket (the list of persisted maps): its lease row is bucket -1. */
    private final Bucket shared = new Bucket();

    /** One bucket's clock: the partition version it was checked at (-1: read the lease first), the last issued, the lease. */
    private static final class Bucket {
        int partitionVersion = -1;
        long last;
        long leaseEnd;
    }

    /** {@code table}: keyspace.table of the state rows; the leases are in {@code <table>_clock}, created if missing. */
    BucketClock(final CqlSession session, final String table, final IPartitionService partitions) {
        session.execute("CREATE TABLE IF NOT EXISTS " + table + "_clock (bucket int PRIMARY KEY, lease bigint)");
        this.session = session;
        this.selectLease = session.prepare("SELECT lease FROM " + table + "_clock WHERE bucket = ?");
        this.insertLease = session.prepare("INSERT INTO " + table + "_clock (bucket, lease) VALUES (?, ?)");
        this.partitions = partitions;
        this.buckets = new Bucket[partitions.getPartitionCount()];
        for (int i = 0; i < buckets.length; i++) {
            buckets[i] = new Bucket();
        }
    }

    /**
     * The next write timestamp (µs) of {@code bucket}: above every one issued for it before, by any
     * member. Blocks on Cassandra when the lease must be read or renewed; throws when it cannot be
     * (the write it was for fails with it, and is retried by the caller as any failed write).
     */
    long next(final int bucket) {
        final Bucket b = buckets[bucket];
        synchronized (b) {
            final IPartition partition = partitions.getPartition(bucket);
            final int version = partition.version();
            if (b.partitionVersion != version || !partition.isLocal()) {
                // Another member may have issued timestamps for this bucket since this one last did.
                final Row row = session.execute(selectLease.bind(bucket)).one();
                if (row != null) {
                    b.last = Math.max(b.last, row.getLong(0));
                }
                b.leaseEnd = b.last; // renew before issuing
                b.partitionVersion = partition.isLocal() ? version : -1;
            }
            final long timestamp = Math.max(System.currentTimeMillis() * 1_000, b.last + 1);
            if (timestamp >= b.leaseEnd) {
                final long lease = timestamp + LEASE_MICROS;
                session.execute(insertLease.bind(bucket, lease).setQueryTimestamp(lease));
                b.leaseEnd = lease;
            }
            b.last = timestamp;
            return timestamp;
        }
    }

    /**
     * A write timestamp (µs) for a row that belongs to no bucket — which any member may write, so
     * nothing is cached: the stored lease is read every time and the new timestamp stored as the
     * lease before it is used. For rare writes (a map's registration and its removal), two requests
     * each; a write that happened before another, on any member, gets the lower timestamp.
     */
    long nextShared() {
        synchronized (shared) {
            final Row row = session.execute(selectLease.bind(-1)).one();
            final long stored = row == null ? 0 : row.getLong(0);
            final long timestamp = Math.max(System.currentTimeMillis() * 1_000, Math.max(stored, shared.last) + 1);
            session.execute(insertLease.bind(-1, timestamp).setQueryTimestamp(timestamp));
            shared.last = timestamp;
            return timestamp;
        }
    }
}
