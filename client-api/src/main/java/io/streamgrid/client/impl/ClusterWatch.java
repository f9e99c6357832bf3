package io.streamgrid.client.impl;

import com.hazelcast.client.impl.clientside.HazelcastClientProxy;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipAdapter;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.LifecycleEvent;

import java.util.UUID;

/**
 * Tells a {@link MapFeed} what happened to the cluster its journal positions are in: a member left
 * (doorbell events it had not sent yet are gone), or the client is now connected to another cluster
 * (a whole-cluster restart within the reconnect window: its journals began again, below the
 * positions read so far). Hazelcast fires no event for the second (CLIENT_CHANGED_CLUSTER is for
 * blue-green failover only): the cluster id is compared on every reconnection and whenever
 * {@link #check()} is called.
 */
final class ClusterWatch {
    private final HazelcastInstance client;
    private final Runnable replaced;
    /** The cluster the positions are in (guarded by this); null until the client is connected. */
    private UUID clusterId;

    /** Calls {@code memberLeft} when a member leaves and {@code replaced} once per change of cluster. */
    ClusterWatch(final HazelcastInstance client, final Runnable memberLeft, final Runnable replaced) {
        this.client = client;
        this.replaced = replaced;
        client.getCluster().addMembershipListener(new MembershipAdapter() {
            @Override
            public void memberRemoved(final MembershipEvent event) {
                memberLeft.run();
            }
        });
        this.clusterId = clusterIdOf(client);
        client.getLifecycleService().addLifecycleListener(event -> {
            if (event.getState() == LifecycleEvent.LifecycleState.CLIENT_CONNECTED) {
                check();
            }
        });
    }

    /** The id of the cluster {@code client} is connected to (null while it is not); Hazelcast keeps it internal. */
    private static UUID clusterIdOf(final HazelcastInstance client) {
        return client instanceof HazelcastClientProxy proxy ? proxy.client.getClientClusterService().getClusterId() : null;
    }

    /** If the client is now connected to another cluster than before: calls {@code replaced}, once. */
    void check() {
        final UUID now = clusterIdOf(client);
        final boolean changed;
        synchronized (this) {
            changed = now != null && clusterId != null && !now.equals(clusterId);
            if (now != null) {
                clusterId = now;
            }
        }
        if (changed) {
            replaced.run();
        }
    }
}
