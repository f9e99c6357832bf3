package io.streamgrid.node.impl;

import com.hazelcast.cluster.Member;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.core.HazelcastInstanceAware;
import com.hazelcast.instance.impl.Node;
import com.hazelcast.internal.partition.InternalPartitionService;
import com.hazelcast.internal.partition.MigrationInfo;
import com.hazelcast.internal.partition.impl.InternalPartitionServiceImpl;
import com.hazelcast.internal.partition.operation.PublishCompletedMigrationsOperation;
import com.hazelcast.partition.MigrationListener;
import com.hazelcast.partition.MigrationState;
import com.hazelcast.partition.ReplicaMigrationEvent;

import java.util.List;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * On the master, tells the other members of every partition move as soon as it is committed,
 * instead of after every tenth (Hazelcast 5.7's {@code MigrationManagerImpl} publishes completed
 * migrations in batches of ten, a constant).
 *
 * <p>Why: the member a partition moves away from keeps the partition marked as migrating until it
 * learns that the move was committed, and refuses writes to it until then (they are retried). With
 * one move at a time, a batch of ten took about half a second in the migration benchmark, so a
 * write to a partition that had just moved from a member other than the master waited 0.3-0.9 s
 * (perf/NOTES.md, "What a graceful leave's write tail is made of").
 *
 * <p>What it sends is what the master's own batches send (Hazelcast's
 * {@link PublishCompletedMigrationsOperation} with the master's list of completed migrations not
 * yet acknowledged by all); a member applies each move once, by partition version, so a list
 * arriving twice or out of order changes nothing, and Hazelcast's own batches still follow. A
 * send that fails, or that a member refuses, is left to those batches (which answer a refusal with
 * the whole partition table) and to Hazelcast's periodic partition table publication.
 * Uses Hazelcast internals, so it is tied to the Hazelcast version in the parent pom.
 */
final class CompletedMigrationPublisher implements MigrationListener, HazelcastInstanceAware {
    private static final Logger LOG = Logger.getLogger(CompletedMigrationPublisher.class.getName());

    private volatile Node node;

    @Override
    public void setHazelcastInstance(final HazelcastInstance instance) {
        this.node = HazelcastInternals.node(instance);
    }

    @Override
    public void replicaMigrationCompleted(final ReplicaMigrationEvent event) {
        final Node local = node;
        if (local == null || !local.isRunning()) {
            return;
        }
        final InternalPartitionServiceImpl partitions = (InternalPartitionServiceImpl) local.getPartitionService();
        // The master as the partition service knows it, which is what its own publishing checks.
        if (!partitions.isLocalMemberMaster()) {
            return;
        }
        final List<MigrationInfo> completed = partitions.getMigrationManager().getCompletedMigrationsCopy();
        if (completed.isEmpty()) {
            return;
        }
        for (final Member member : local.getClusterService().getMembers()) {
            if (member.localMember()) {
                continue;
            }
            local.getNodeEngine().getOperationService()
                    .invokeOnTarget(InternalPartitionService.SERVICE_NAME, new PublishCompletedMigrationsOperation(completed),
                            member.getAddress())
                    .whenComplete((applied, failure) -> {
                        if (failure != null && LOG.isLoggable(Level.FINE)) {
                            LOG.log(Level.FINE, "publishing completed migrations to " + member + " failed", failure);
                        }
                    });
        }
    }

    @Override
    public void migrationStarted(final MigrationState state) {
    }

    @Override
    public void migrationFinished(final MigrationState state) {
    }

    @Override
    public void replicaMigrationFailed(final ReplicaMigrationEvent event) {
    }
}
