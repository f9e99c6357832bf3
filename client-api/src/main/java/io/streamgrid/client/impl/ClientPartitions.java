package io.streamgrid.client.impl;

import com.hazelcast.client.impl.clientside.HazelcastClientProxy;
import java.util.UUID;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.query.Predicate;
import com.hazelcast.query.Predicates;

import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;

/**
 * The cluster's partitions as a subscription needs them: which one a key is in, all of them, and a
 * query of some of them only (a resync of one partition reads its entries, not the whole map's).
 */
final class ClientPartitions {
    private final HazelcastInstance client;
    private final int count;
    /** Per partition, a key in it (made on the first query of some partitions only). */
    private Object[] keyOfPartition;

    ClientPartitions(final HazelcastInstance client) {
        this.client = client;
        this.count = client.getPartitionService().getPartitions().size();
    }

    int count() {
        return count;
    }

    int of(final Object key) {
        return client.getPartitionService().getPartition(key).getPartitionId();
    }

    /** The member that owns partition {@code p} as this client last heard, or null while it knows none. */
    UUID ownerOf(final int p) {
        return client instanceof HazelcastClientProxy proxy ? proxy.client.getClientPartitionService().getPartitionOwner(p) : null;
    }

    Set<Integer> all() {
        final Set<Integer> all = new TreeSet<>();
        for (int p = 0; p < count; p++) {
            all.add(p);
        }
        return all;
    }

    /** {@code where} over {@code parts}: the whole map when every partition is asked for, else only those partitions. */
    Predicate<Object, Object> query(final Set<Integer> parts, final Predicate<Object, Object> where) {
        if (parts.size() == count) {
            return where;
        }
        final Set<Object> keys = new HashSet<>();
        for (final int p : parts) {
            keys.add(keyIn(p));
        }
        return Predicates.multiPartitionPredicate(keys, where);
    }

    /** A key (an Integer) that lives in partition {@code p}: what a partition predicate names a partition by. */
    private Object keyIn(final int p) {
        if (keyOfPartition == null) {
            keyOfPartition = new Object[count];
            int found = 0;
            for (int candidate = 0; found < count; candidate++) {
                if (candidate == Integer.MAX_VALUE) {
                    throw new IllegalStateException("bug: no Integer key found for every one of " + count + " partitions");
                }
                final int partition = of(candidate);
                if (keyOfPartition[partition] == null) {
                    keyOfPartition[partition] = candidate;
                    found++;
                }
            }
        }
        return keyOfPartition[p];
    }
}
