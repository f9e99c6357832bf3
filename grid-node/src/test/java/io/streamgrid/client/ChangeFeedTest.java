package io.streamgrid.client;

import com.hazelcast.map.IMap;
import com.hazelcast.topic.ITopic;
import io.streamgrid.cq.Where;
import io.streamgrid.cq.feed.FeedProtocol;
import io.streamgrid.cq.feed.FeedSpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** The members' change feeds: what a lease means, and that a subscription needs no feed to lose nothing. */
class ChangeFeedTest {
    @TempDir
    Path dir;

    /**
     * Design of this test: a subscription registered by hand with a 2 s lease that nobody renews
     * (its client died). While the lease lasts the member pushes marks and batches to its topic;
     * once it has run out, the member pushes nothing more, whatever is written.
     */
    @Test
    void when_leaseRunsOut_then_theMemberStopsFeeding() throws Exception {
        try (OneMemberGrid grid = OneMemberGrid.start(dir)) {
            final IMap<String, FeedSpec> registry = grid.client.hazelcast().getMap(FeedProtocol.REGISTRY);
            final ITopic<Object> topic = grid.client.hazelcast().getTopic(FeedProtocol.topicOf("abandoned"));
            final AtomicLong messages = new AtomicLong();
            final AtomicLong lastMessage = new AtomicLong(System.nanoTime());
            topic.addMessageListener(message -> {
                messages.incrementAndGet();
                lastMessage.set(System.nanoTime());
            });
            final IMap<Long, Long> map = grid.client.hazelcast().getMap("state.lease-test");
            registry.set("abandoned", new FeedSpec("state.lease-test", Where.parse("this >= 0")), 2, TimeUnit.SECONDS);
            await().atMost(Duration.ofSeconds(10)).until(() -> messages.get() > 0);
            // Expiry is seen by the member's expiration task, within seconds of the lease's end.
            await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200)).until(() -> {
                map.set(FreshKeys.next(), 1L);
                return !registry.containsKey("abandoned") && System.nanoTime() - lastMessage.get() > Duration.ofSeconds(2).toNanos();
            });
            final long before = messages.get();
            for (long i = 0; i < 100; i++) {
                map.set(i, i);
            }
            Thread.sleep(1_500);
            assertThat(messages.get()).as("messages after the lease ran out").isEqualTo(before);
        }
    }

    /** Keys for the writes that keep the map changing while the test waits. */
    private static final class FreshKeys {
        private static final AtomicLong NEXT = new AtomicLong(1_000);

        static long next() {
            return NEXT.incrementAndGet();
        }
    }

    /**
     * Design of this test: a member of another make — StreamGrid's configuration, but no change
     * feeds. A subscription must still deliver every change (it polls the journal of partitions no
     * feed speaks of) and say so in its journal-read count.
     */
    @Test
    void when_membersRunNoChangeFeed_then_theSubscriptionPollsAndMissesNothing() throws Exception {
        try (OneMemberGrid grid = OneMemberGrid.startPlainHazelcast(dir)) {
            final IMap<Long, Long> map = grid.client.hazelcast().getMap("state.no-feed");
            for (long key = 0; key < 200; key++) {
                map.set(key, 0L);
            }
            final Map<Object, Object> view = new ConcurrentHashMap<>();
            try (Subscription subscription = grid.client.subscribe("state.no-feed", "this >= 10", new DeltaListener() {
                @Override
                public void onSnapshot(final Map<Object, Object> entries) {
                    view.putAll(entries);
                }

                @Override
                public void onDelta(final Delta delta) {
                    if (delta.kind() == Delta.Kind.LEAVE) {
                        view.remove(delta.key());
                    } else {
                        view.put(delta.key(), delta.value());
                    }
                }
            }, SubscriptionOptions.defaults())) {
                for (long round = 1; round <= 20; round++) {
                    for (long key = 0; key < 200; key++) {
                        map.set(key, (key + round) % 30); // enters and leaves the result
                    }
                }
                final Map<Object, Object> expected = new HashMap<>();
                map.entrySet().forEach(e -> {
                    if (e.getValue() >= 10) {
                        expected.put(e.getKey(), e.getValue());
                    }
                });
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200)).until(() -> view.equals(expected));
                assertThat(subscription.journalReads()).as("the subscription read the journal itself").isPositive();
                assertThat(subscription.state()).isEqualTo(Subscription.State.RUNNING);
            }
        }
    }
}
