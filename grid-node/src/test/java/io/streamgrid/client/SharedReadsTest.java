package io.streamgrid.client;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.instance.impl.HazelcastInstanceProxy;
import com.hazelcast.map.IMap;
import com.hazelcast.map.impl.MapService;
import com.hazelcast.spi.impl.operationparker.impl.OperationParkerImpl;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The subscriptions of one client to one map share their journal reads (one chain of reads per
 * partition, filtered by the union of their predicates, woken by one change listener). Sharing
 * must cost nothing in completeness: a subscription that joins while writes go on gets every
 * change after its snapshot, in order; and the members must hold one listener registration per
 * map, not one per subscription (the member's local doorbell when it pushes, decision record 0012;
 * the client's key-only doorbell when the client reads itself), and no parked read at all.
 */
class SharedReadsTest {
    private static final int GROUPS = 10;

    /** A value with a schema (the member runs in this JVM, so it has the class). */
    record Version(long group, long version) {
    }

    @TempDir
    Path dir;

    /**
     * Design of this test: ten subscriptions ({@code group = i}) join a quiet map one after the
     * other, then 50,000 keys are written (every group in every partition). Oracle: the member's
     * listener registrations on the map — each subscription reading on its own would register one,
     * ten in all — its count of parked operations (reads that waited on the member parked one per
     * partition and subscription, 2,710 in all, before no read waited), and each view against the map.
     */
    @Test
    void when_tenSubscriptionsOfOneClientFollowAMap_then_theyShareOneListenerAndParkNothing() throws Exception {
        try (OneMemberGrid grid = OneMemberGrid.start(dir, "state-maps: {event-journal-capacity: 271000}")) {
            final IMap<Long, Version> map = grid.client.hazelcast().getMap("state.shared");
            final List<ViewListener> views = new ArrayList<>();
            final List<Subscription> subscriptions = new ArrayList<>();
            for (int i = 0; i < GROUPS; i++) {
                final ViewListener view = new ViewListener();
                views.add(view);
                subscriptions.add(grid.client.subscribe("state.shared", "group = " + i, view, SubscriptionOptions.defaults()));
            }
            final Map<Long, Version> batch = new HashMap<>();
            for (long key = 0; key < 50_000; key++) {
                batch.put(key, new Version(key % GROUPS, 1));
                if (batch.size() == 1_000) {
                    map.putAll(batch);
                    batch.clear();
                }
            }
            for (int i = 0; i < GROUPS; i++) {
                final ViewListener view = views.get(i);
                await().atMost(Duration.ofSeconds(60)).until(() -> view.view.size() == 50_000 / GROUPS);
            }
            final int parked = parkedOperations(grid.node.hazelcast());
            final int listeners = listenerRegistrations(grid.node.hazelcast(), "state.shared");
            System.out.println(GROUPS + " subscriptions: " + listeners + " listener registration(s) on the map (reading on their own: "
                    + GROUPS + "), " + parked + " operations parked on the member");
            assertThat(listeners).as("listener registrations on the map").isEqualTo(1);
            assertThat(parked).as("parked journal reads").isZero();
            for (int i = 0; i < GROUPS; i++) {
                final Map<Object, Object> expected = new HashMap<>();
                for (long key = i; key < 50_000; key += GROUPS) {
                    expected.put(key, new Version(i, 1));
                }
                assertThat(views.get(i).view).as("view of group = " + i).isEqualTo(expected);
                assertThat(subscriptions.get(i).resyncs()).isZero();
            }
            subscriptions.forEach(Subscription::close);
        }
    }

    /**
     * Design of this test: a writer bumps the version of 1,000 keys (10 groups) round after round
     * while ten subscriptions join one by one, 150 ms apart; then it stops. Oracle: per subscription
     * and key, the versions it was told after its snapshot must follow each other without a gap up
     * to the last version written — a shared read parked with a union that lacked a joining
     * subscription's predicate would skip some — and its view must equal the map's group.
     */
    @Test
    void when_subscriptionsJoinWhileWritesGoOn_then_eachGetsEveryChangeAfterItsSnapshotInOrder() throws Exception {
        try (OneMemberGrid grid = OneMemberGrid.start(dir, "state-maps: {event-journal-capacity: 2710000}")) {
            final IMap<Long, Version> map = grid.client.hazelcast().getMap("state.joining");
            final AtomicBoolean writing = new AtomicBoolean(true);
            final Thread writer = new Thread(() -> {
                for (long version = 1; writing.get(); version++) {
                    for (long key = 0; key < 1_000; key++) {
                        map.set(key, new Version(key % GROUPS, version));
                    }
                }
            }, "writer");
            writer.start();
            final List<VersionRecorder> recorders = new ArrayList<>();
            final List<Subscription> subscriptions = new ArrayList<>();
            try {
                for (int i = 0; i < GROUPS; i++) {
                    Thread.sleep(150);
                    final VersionRecorder recorder = new VersionRecorder();
                    recorders.add(recorder);
                    subscriptions.add(grid.client.subscribe("state.joining", "group = " + i, recorder, SubscriptionOptions.defaults()));
                }
                Thread.sleep(500);
            } finally {
                writing.set(false);
                writer.join();
            }
            int gaps = 0;
            int wrongViews = 0;
            long deltas = 0;
            for (int i = 0; i < GROUPS; i++) {
                final VersionRecorder recorder = recorders.get(i);
                final Map<Object, Object> expected = new HashMap<>();
                for (long key = i; key < 1_000; key += GROUPS) {
                    expected.put(key, map.get(key));
                }
                try {
                    await().atMost(Duration.ofSeconds(30)).until(() -> recorder.view().equals(expected));
                } catch (final org.awaitility.core.ConditionTimeoutException e) {
                    wrongViews++;
                }
                gaps += recorder.gaps();
                deltas += recorder.deltas();
                assertThat(subscriptions.get(i).resyncs()).as("resyncs of group = " + i).isZero();
            }
            System.out.println(GROUPS + " subscriptions joined while writing: " + deltas + " deltas, " + gaps
                    + " version gaps, " + wrongViews + " views unlike the map");
            assertThat(deltas).as("deltas after the snapshots").isPositive();
            assertThat(gaps).as("versions skipped after a snapshot").isZero();
            assertThat(wrongViews).as("views unlike the map").isZero();
            subscriptions.forEach(Subscription::close);
        }
    }

    private static int parkedOperations(final HazelcastInstance member) {
        final HazelcastInstanceProxy proxy = (HazelcastInstanceProxy) member;
        return ((OperationParkerImpl) proxy.getOriginal().node.getNodeEngine().getOperationParker()).getTotalParkedOperationCount();
    }

    static int listenerRegistrations(final HazelcastInstance member, final String map) {
        final HazelcastInstanceProxy proxy = (HazelcastInstanceProxy) member;
        return proxy.getOriginal().node.getNodeEngine().getEventService().getRegistrations(MapService.SERVICE_NAME, map).size();
    }

    /** Per key, the version of the snapshot or last delta, counting deltas that skip a version or go back. */
    static final class VersionRecorder implements DeltaListener {
        private final Map<Object, Version> last = new ConcurrentHashMap<>();
        private volatile int gaps;
        private volatile int wentBack;
        private volatile long deltas;

        @Override
        public void onSnapshot(final Map<Object, Object> entries) {
            entries.forEach((key, value) -> last.put(key, (Version) value));
        }

        @Override
        public void onDelta(final Delta delta) {
            final Version now = (Version) delta.value();
            final Version before = last.put(delta.key(), now);
            if (before != null && now.version() != before.version() + 1) {
                gaps++;
            }
            if (before != null && now.version() <= before.version()) {
                wentBack++;
            }
            deltas++;
        }

        Map<Object, Object> view() {
            return new HashMap<>(last);
        }

        /** Deltas that skipped a version (none for every-change delivery; conflated delivery may skip). */
        int gaps() {
            return gaps;
        }

        /** Deltas not newer than the key's last one (none for either delivery). */
        int wentBack() {
            return wentBack;
        }

        long deltas() {
            return deltas;
        }
    }
}
