package io.streamgrid.client;

import com.hazelcast.map.IMap;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cluster.TestWorkDir;
import io.streamgrid.jobs.usecase.IpWindowCount;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Many subscriptions of one map with different predicates. Design of this test: 2 member
 * processes; 10 subscriptions ({@code count = i}) join one after the other, then 3 rounds of writes
 * over 10,000 keys ({@code count = key % 100}). Each subscription must end with exactly its 100 keys
 * at their last round's value. (A member-side feed shared by all subscriptions of a map, tried and
 * not landed, failed this at first: reads parked before a subscription joined did not pass its
 * changes. Any future sharing of reads must pass it.)
 */
class FanOutTest {
    @Test
    void when_subscriptionsWithDifferentPredicatesJoinOneByOne_then_eachGetsEveryMatch(final TestInfo test) throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().members(2).workDir(TestWorkDir.of(test)).start();
             StreamGridClient client = StreamGridClient.connect(cluster.clientSettings())) {
            final IMap<Long, IpWindowCount> map = client.hazelcast().getMap("state.fan-out");
            final List<Map<Object, Object>> views = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                final ViewListener listener = new ViewListener();
                views.add(listener.view);
                client.subscribe("state.fan-out", "count = " + i, listener, SubscriptionOptions.defaults());
            }
            for (int round = 0; round < 3; round++) {
                for (long key = 0; key < 10_000; key++) {
                    map.set(key, new IpWindowCount("10.0.0.1", round, 0, key % 100, (int) key, false));
                }
            }
            for (int i = 0; i < 10; i++) {
                final int bucket = i;
                final Map<Object, Object> expected = new HashMap<>();
                for (long key = i; key < 10_000; key += 100) {
                    expected.put(key, new IpWindowCount("10.0.0.1", 2, 0, i, (int) key, false));
                }
                final Map<Object, Object> view = views.get(i);
                await().atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(200))
                        .untilAsserted(() -> assertThat(view).as("subscription to count = " + bucket)
                                .isEqualTo(expected));
            }
        }
    }
}
