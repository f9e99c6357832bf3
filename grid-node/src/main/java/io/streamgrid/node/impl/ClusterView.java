package io.streamgrid.node.impl;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.DistributedObject;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import com.hazelcast.partition.Partition;
import io.streamgrid.client.SubscriptionReport;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the status page, the metrics and {@code streamgrid top} show of the cluster besides jobs
 * ({@link JobFigures}): partitions per member and the subscriptions clients report
 * ({@link SubscriptionReport}). Works on a member and on a client.
 */
public final class ClusterView {
    private ClusterView() {
    }

    /** Partitions each member owns (members that own none are absent). */
    public static Map<Member, Integer> partitionsByMember(final HazelcastInstance instance) {
        final Map<Member, Integer> owned = new HashMap<>();
        for (final Partition partition : instance.getPartitionService().getPartitions()) {
            if (partition.getOwner() != null) {
                owned.merge(partition.getOwner(), 1, Integer::sum);
            }
        }
        return owned;
    }

    /** Every live subscription's last report, by map then id; none when no client ever subscribed (the map is not made here). */
    public static List<SubscriptionReport> subscriptions(final HazelcastInstance member) {
        for (final DistributedObject object : member.getDistributedObjects()) {
            if (object instanceof IMap<?, ?> map && map.getName().equals(SubscriptionReport.MAP)) {
                final List<SubscriptionReport> reports = new ArrayList<>();
                for (final Object value : map.values()) {
                    if (value instanceof SubscriptionReport report) {
                        reports.add(report);
                    }
                }
                reports.sort(Comparator.comparing(SubscriptionReport::map).thenComparing(SubscriptionReport::id));
                return reports;
            }
        }
        return List.of();
    }

    /** Whether {@code member} is the oldest member: the one that exports the cluster-wide subscription series. */
    static boolean exportsSubscriptionsHere(final HazelcastInstance member) {
        return member.getCluster().getMembers().iterator().next().localMember();
    }
}
