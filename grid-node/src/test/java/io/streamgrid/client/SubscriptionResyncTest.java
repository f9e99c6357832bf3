package io.streamgrid.client;

import com.hazelcast.map.IMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A resync of one partition must read that partition, not the whole map. Observed on the client:
 * how many values the subscription's own thread deserialises while it resynchronises.
 */
class SubscriptionResyncTest {
    @TempDir
    Path dir;

    /** A map value that counts its deserialisations on subscription threads (Java serialization, so a hook runs). */
    static final class Counted implements Serializable {
        static final AtomicLong READ_BY_SUBSCRIPTIONS = new AtomicLong();
        private static final long serialVersionUID = 1L;
        private final long v;

        Counted(final long v) {
            this.v = v;
        }

        private void readObject(final ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            if (Thread.currentThread().getName().startsWith("streamgrid-subscription-")) {
                READ_BY_SUBSCRIPTIONS.incrementAndGet();
            }
        }

        @Override
        public boolean equals(final Object other) {
            return other instanceof Counted counted && counted.v == v;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(v);
        }
    }

    /**
     * Design of this test: 5,000 matching entries over all partitions, and a journal of one change
     * per partition, so that a burst of updates to one key overflows its partition's journal and the
     * subscriber must resynchronise that partition (and only that one, unless the burst is read in
     * time). A resync of one partition should bring about its own 5,000 / 271 ≈ 18 entries to the
     * client, not all 5,000; the view must equal the map afterwards either way.
     */
    @Test
    void when_onePartitionResyncs_then_onlyItsEntriesAreReadAgain() throws Exception {
        try (OneMemberGrid grid = OneMemberGrid.start(dir, "state-maps: {event-journal-capacity: 271}")) {
            final StreamGridClient client = grid.client;
            final IMap<Integer, Counted> map = client.hazelcast().getMap("state.resync-test");
            final Map<Integer, Counted> initial = new HashMap<>();
            for (int i = 0; i < 5_000; i++) {
                initial.put(i, new Counted(i));
            }
            map.putAll(initial);
            final ViewListener listener = new ViewListener();
            final Map<Object, Object> view = listener.view;
            final Subscription subscription = client.subscribe("state.resync-test", "this IS NOT NULL", listener,
                    SubscriptionOptions.defaults());

            for (int round = 0; round < 20 && subscription.resyncs() == 0; round++) {
                Counted.READ_BY_SUBSCRIPTIONS.set(0);
                for (int update = 0; update < 200; update++) {
                    map.set(7, new Counted(round * 1_000 + update)); // one key: one partition's journal overflows
                }
                Thread.sleep(200);
            }
            assertThat(subscription.resyncs()).as("the burst overflowed the partition's journal").isPositive();
            await().atMost(Duration.ofSeconds(30)).until(() -> view.equals(Map.copyOf(map)));
            System.out.println(subscription.resyncs() + " resync(s); values read by the subscription in the last round: "
                    + Counted.READ_BY_SUBSCRIPTIONS.get());
            assertThat(Counted.READ_BY_SUBSCRIPTIONS.get()).as("values read again: about one partition's, not the map's")
                    .isLessThan(500);
        }
    }
}
