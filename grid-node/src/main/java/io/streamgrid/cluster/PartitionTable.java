package io.streamgrid.cluster;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.partition.Partition;

import java.util.Map;
import java.util.TreeMap;

/** Who owns which partitions, as a client or member sees it now. */
public final class PartitionTable {
    private PartitionTable() {
    }

    /**
     * Partitions owned per member address, sorted by address; partitions without an owner at this
     * moment (mid-migration) count under {@code "(none)"}.
     */
    public static Map<String, Integer> countByOwner(final HazelcastInstance instance) {
        final Map<String, Integer> counts = new TreeMap<>();
        for (final Partition partition : instance.getPartitionService().getPartitions()) {
            final String owner = partition.getOwner() == null ? "(none)" : partition.getOwner().getAddress().toString();
            counts.merge(owner.replace("[", "").replace("]", ""), 1, Integer::sum);
        }
        return counts;
    }
}
