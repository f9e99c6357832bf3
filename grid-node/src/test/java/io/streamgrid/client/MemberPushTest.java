package io.streamgrid.client;

import com.hazelcast.cluster.Address;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.streamgrid.client.SharedReadsTest.Version;
import io.streamgrid.client.SharedReadsTest.VersionRecorder;
import io.streamgrid.client.impl.push.MemberPush;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The members push subscriptions' changes (decision record 0012): one local read per partition
 * for every client following a map, each client's changes on its own topic, checked by position on
 * the client. And where a member cannot push, the client reads the journals itself and misses
 * nothing.
 */
class MemberPushTest {
    private static final int KEYS = 1_000;
    private static final int GROUPS = 10;

    @TempDir
    Path dir;

    /**
     * Design of this test: three clients join one by one while a writer bumps the versions of 1,000
     * keys round after round; each client has an every-change subscription of its own group and a
     * conflated one of half the groups. Oracle: the map itself — each view equals it once the writes
     * stop; every-change recorders see every version after their snapshot without a gap, conflated
     * ones never a version that goes back; the member holds one listener registration on the map
     * (its own local doorbell) for three clients, where clients reading themselves hold one each.
     */
    @Test
    void when_threeClientsFollowOneMap_then_theMemberPushesEachItsChangesAndHoldsOneListenerForAll() throws Exception {
        try (OneMemberGrid grid = OneMemberGrid.start(dir, "state-maps: {event-journal-capacity: 2710000}");
             StreamGridClient second = connect(grid);
             StreamGridClient third = connect(grid)) {
            final List<StreamGridClient> clients = List.of(grid.client, second, third);
            final Run run = follow(grid, clients, "state.pushed");
            assertThat(grid.node.hazelcast().getUserContext().get(MemberPush.CONTEXT_KEY)).as("the member's push service")
                    .isInstanceOf(MemberPush.class);
            final int listeners = SharedReadsTest.listenerRegistrations(grid.node.hazelcast(), "state.pushed");
            System.out.println(clients.size() + " clients pushed to: " + run + "; " + listeners
                    + " listener registration(s) on the map (clients reading themselves: " + clients.size() + ")");
            assertThat(listeners).as("listener registrations on the map").isEqualTo(1);
            run.assertComplete();
        }
    }

    /**
     * Design of this test: the member's user context holds something else under the push service's
     * key, so every push request fails on the member as it would on a member that is not a
     * StreamGrid member. Oracle: as above — the client's feed must fall back to reading the journals
     * itself, and deliver every version to the every-change subscription and the latest to the
     * conflated one.
     */
    @Test
    void when_theMemberCannotPush_then_theClientReadsTheJournalsItselfAndMissesNothing() throws Exception {
        try (OneMemberGrid grid = OneMemberGrid.start(dir, "state-maps: {event-journal-capacity: 2710000}")) {
            grid.node.hazelcast().getUserContext().put(MemberPush.CONTEXT_KEY, "not a push service");
            final Run run = follow(grid, List.of(grid.client), "state.unpushed");
            System.out.println("one client reading itself: " + run);
            assertThat(grid.node.hazelcast().getUserContext().get(MemberPush.CONTEXT_KEY)).isEqualTo("not a push service");
            run.assertComplete();
        }
    }

    private static StreamGridClient connect(final OneMemberGrid grid) {
        final HazelcastInstance member = grid.node.hazelcast();
        final Address address = member.getCluster().getLocalMember().getAddress();
        return StreamGridClient.connect(ClientSettings.of(member.getConfig().getClusterName(),
                List.of(address.getHost() + ":" + address.getPort())));
    }

    /** Subscribes on every client while rounds of versions are written, and goes on writing for a second after. */
    private static Run follow(final OneMemberGrid grid, final List<StreamGridClient> clients, final String mapName)
            throws Exception {
        final IMap<Long, Version> map = grid.client.hazelcast().getMap(mapName);
        final AtomicBoolean writing = new AtomicBoolean(true);
        final Thread writer = new Thread(() -> {
            for (long version = 1; writing.get(); version++) {
                final Map<Long, Version> round = new HashMap<>();
                for (long key = 0; key < KEYS; key++) {
                    round.put(key, new Version(key % GROUPS, version));
                }
                map.putAll(round);
            }
        }, "writer");
        writer.start();
        final Run run = new Run(map);
        try {
            for (int c = 0; c < clients.size(); c++) {
                Thread.sleep(200);
                run.add(clients.get(c).subscribe(mapName, "group = " + c, run.recorder("group = " + c, false),
                        SubscriptionOptions.defaults()));
                run.add(clients.get(c).subscribe(mapName, "group < 5", run.recorder("group < 5", true),
                        SubscriptionOptions.conflated()));
            }
            Thread.sleep(1_000);
        } finally {
            writing.set(false);
            writer.join();
        }
        return run;
    }

    /** The subscriptions of a run and what each was told. */
    private static final class Run {
        private final IMap<Long, Version> map;
        private final List<Subscription> subscriptions = new ArrayList<>();
        private final List<VersionRecorder> recorders = new ArrayList<>();
        private final List<String> wheres = new ArrayList<>();
        private final List<Boolean> conflated = new ArrayList<>();

        Run(final IMap<Long, Version> map) {
            this.map = map;
        }

        VersionRecorder recorder(final String where, final boolean isConflated) {
            final VersionRecorder recorder = new VersionRecorder();
            recorders.add(recorder);
            wheres.add(where);
            conflated.add(isConflated);
            return recorder;
        }

        void add(final Subscription subscription) {
            subscriptions.add(subscription);
        }

        void assertComplete() {
            for (int i = 0; i < recorders.size(); i++) {
                final VersionRecorder recorder = recorders.get(i);
                final String where = wheres.get(i);
                final Map<Object, Object> expected = new HashMap<>();
                for (final Map.Entry<Long, Version> entry : map.entrySet()) {
                    final long group = entry.getValue().group();
                    if (where.equals("group < 5") ? group < 5 : where.equals("group = " + group)) {
                        expected.put(entry.getKey(), entry.getValue());
                    }
                }
                await().atMost(Duration.ofSeconds(30)).untilAsserted(() -> assertThat(recorder.view()).as(where).isEqualTo(expected));
                assertThat(recorder.deltas()).as("deltas after the snapshot, " + where).isPositive();
                assertThat(recorder.wentBack()).as("versions that went back, " + where).isZero();
                if (!conflated.get(i)) {
                    assertThat(recorder.gaps()).as("versions skipped by every-change delivery, " + where).isZero();
                }
                assertThat(subscriptions.get(i).resyncs()).as("resyncs, " + where).isZero();
            }
            subscriptions.forEach(Subscription::close);
        }

        @Override
        public String toString() {
            long deltas = 0;
            long skipped = 0;
            for (int i = 0; i < recorders.size(); i++) {
                deltas += recorders.get(i).deltas();
                if (conflated.get(i)) {
                    skipped += recorders.get(i).gaps();
                }
            }
            return subscriptions.size() + " subscriptions, " + deltas + " deltas, " + skipped + " conflated deltas that skipped versions";
        }
    }
}
