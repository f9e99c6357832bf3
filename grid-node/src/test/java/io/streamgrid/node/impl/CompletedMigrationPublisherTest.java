package io.streamgrid.node.impl;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.partition.impl.InternalPartitionServiceImpl;
import com.hazelcast.internal.partition.impl.PartitionStateManager;
import com.hazelcast.map.IMap;
import io.streamgrid.cluster.LoopbackPorts;
import io.streamgrid.node.NodeSettings;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Partition moves as StreamGrid's member configuration makes them: one at a time, each told to the
 * member it leaves once committed ({@link CompletedMigrationPublisher}, {@code migration.prompt-move-notices}). Members in this JVM: the
 * test is about Hazelcast's bookkeeping on a member, not about failure (the migration benchmark and
 * {@code LiveScalingTest} move partitions between member processes under writes).
 */
class CompletedMigrationPublisherTest {
    private static final int ENTRIES = 20_000;
    private static final String MAP = "state.migration-bookkeeping";

    @TempDir
    Path dir;

    private final List<HazelcastInstance> members = new ArrayList<>();

    @AfterEach
    void stopMembers() {
        members.forEach(HazelcastInstance::shutdown);
    }

    /**
     * A member that a partition moves away from refuses writes to it (they are retried) until it
     * learns the move was committed. With the notices on it learns of each move at once: the
     * non-master member holds the move under way and the one just committed (2 in every run so
     * far), with one more allowed for a slow machine.
     */
    @Test
    void when_aMemberJoins_then_theNonMasterMemberReleasesEachMovedPartitionWithoutWaitingForABatch() throws Exception {
        final int mostHeld = mostPartitionsHeldAsMigratingByTheNonMasterWhileAThirdJoins(true);
        // At least one: partitions did move off the non-master member while it was watched.
        assertThat(mostHeld).as("partitions held as migrating at once by the non-master member").isBetween(1, 3);
    }

    /**
     * The control: with the notices off, Hazelcast tells the non-master member of moves in batches of
     * ten, and the same count reaches a batch's worth (7 and 8 in the first two runs). Should a
     * Hazelcast upgrade tell members sooner by itself, this fails, and the notices can go.
     */
    @Test
    void when_promptMoveNoticesAreOff_then_theNonMasterMemberHoldsMovedPartitionsUntilABatchArrives() throws Exception {
        final int mostHeld = mostPartitionsHeldAsMigratingByTheNonMasterWhileAThirdJoins(false);
        assertThat(mostHeld).as("partitions held as migrating at once by the non-master member").isGreaterThanOrEqualTo(5);
    }

    private int mostPartitionsHeldAsMigratingByTheNonMasterWhileAThirdJoins(final boolean promptMoveNotices) throws Exception {
        final List<Integer> ports = List.of(LoopbackPorts.freePort(), LoopbackPorts.freePort(), LoopbackPorts.freePort());
        final HazelcastInstance master = start(ports, 0, promptMoveNotices);
        final HazelcastInstance other = start(ports, 1, promptMoveNotices);
        final IMap<Integer, byte[]> map = master.getMap(MAP);
        final Map<Integer, byte[]> values = new HashMap<>();
        for (int key = 0; key < ENTRIES; key++) {
            values.put(key, value(key));
        }
        map.putAll(values);

        final PartitionStateManager otherPartitions = ((InternalPartitionServiceImpl) HazelcastInternals.node(other)
                .getPartitionService()).getPartitionStateManager();
        final int partitionCount = master.getPartitionService().getPartitions().size();
        final AtomicBoolean sampling = new AtomicBoolean(true);
        final AtomicInteger mostHeld = new AtomicInteger();
        final AtomicInteger samples = new AtomicInteger();
        final Thread sampler = new Thread(() -> {
            while (sampling.get()) {
                int held = 0;
                for (int partition = 0; partition < partitionCount; partition++) {
                    if (otherPartitions.isMigrating(partition)) {
                        held++;
                    }
                }
                mostHeld.accumulateAndGet(held, Math::max);
                samples.incrementAndGet();
            }
        }, "migrating-flag-sampler");
        sampler.start();
        try {
            start(ports, 2, promptMoveNotices);
            awaitSafe(master, Duration.ofMinutes(2));
        } finally {
            sampling.set(false);
            sampler.join();
        }
        System.out.printf("prompt move notices %s: most partitions held as migrating at once by the non-master member: %d "
                + "(%,d samples)%n", promptMoveNotices ? "on" : "off", mostHeld.get(), samples.get());

        final Map<Integer, byte[]> read = map.getAll(values.keySet());
        long lost = 0;
        for (int key = 0; key < ENTRIES; key++) {
            if (!Arrays.equals(read.get(key), value(key))) {
                lost++;
            }
        }
        final long duplicated = Math.max(0, map.size() - ENTRIES); // entries beyond the ones written
        System.out.printf("%d expected, %d found, %d lost, %d duplicated%n", ENTRIES, ENTRIES - lost, lost, duplicated);
        assertThat(lost).isZero();
        assertThat(duplicated).isZero();
        return mostHeld.get();
    }

    private HazelcastInstance start(final List<Integer> ports, final int index, final boolean promptMoveNotices)
            throws IOException {
        final String addresses = String.join(", ", ports.stream().map(port -> "'127.0.0.1:" + port + "'").toList());
        final Path yaml = Files.writeString(dir.resolve("member-" + index + ".yaml"), String.join("\n",
                "cluster-name: migration-bookkeeping-" + ports.get(0),
                "network: {port: " + ports.get(index) + ", members: [" + addresses + "]}",
                "data-dir: " + dir.resolve("data-" + index),
                "jet: {enabled: false}",
                "migration: {prompt-move-notices: " + promptMoveNotices + "}",
                ""));
        final HazelcastInstance member = Hazelcast.newHazelcastInstance(
                HazelcastConfigFactory.memberConfig(NodeSettings.load(Optional.of(yaml), NodeSettings.Overrides.none())));
        members.add(member);
        return member;
    }

    private static void awaitSafe(final HazelcastInstance member, final Duration timeout) throws InterruptedException {
        final long deadline = System.nanoTime() + timeout.toNanos();
        while (!(member.getCluster().getMembers().size() == 3 && member.getPartitionService().isClusterSafe())) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the cluster was not safe " + timeout.toSeconds() + " s after the third member joined");
            }
            Thread.sleep(50);
        }
    }

    /** 1 KiB, its first byte from the key. */
    private static byte[] value(final int key) {
        final byte[] value = new byte[1024];
        value[0] = (byte) key;
        return value;
    }
}
