package io.streamgrid.node.impl;

import com.hazelcast.core.DistributedObject;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.streamgrid.client.SubscriptionReport;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** The continuous-query subscriptions clients report ({@link SubscriptionReport}), as the members show them. */
final class SubscriptionReports {
    private SubscriptionReports() {
    }

    /** Every live subscription's last report, by map then id; none when no client ever subscribed (the map is not made here). */
    static List<SubscriptionReport> all(final HazelcastInstance member) {
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
    static boolean exportsHere(final HazelcastInstance member) {
        return member.getCluster().getMembers().iterator().next().localMember();
    }
}
