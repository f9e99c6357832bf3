package io.streamgrid.client;

import com.hazelcast.map.IMap;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cluster.LocalClusterBuilder;
import io.streamgrid.cluster.LoopbackPorts;
import io.streamgrid.cluster.TestWorkDir;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Design of this test: a client follows a map (a subscription and a local view) while every member
 * of its cluster stops and a new cluster starts in their place — same name, same addresses — within
 * the client's reconnect window, as a whole-cluster restart does. The new cluster's journals begin
 * again near sequence 0, below what the subscriptions had applied; a subscription that kept its old
 * positions dropped every change until the sequences passed the old ones, and sat on stale data
 * with no RESYNC. After every key is written once more on the new cluster, each view must equal
 * what the server holds, and a RESYNC must have said why.
 */
class ClusterRestartUnderSubscriptionsTest {
    private static final String MAP = "state.ticks";
    private static final int KEYS = ContinuousQueryTest.KEYS;

    @Test
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void when_theWholeClusterIsReplacedWhileAClientFollowsAMap_then_theViewsEqualTheNewServer(final TestInfo test) throws Exception {
        final Path workDir = TestWorkDir.of(test);
        final String clusterName = "sg-restart-" + UUID.randomUUID().toString().substring(0, 8);
        final int basePort = LoopbackPorts.freePort();
        final LocalClusterBuilder members = LocalCluster.builder().members(2).clusterName(clusterName).basePort(basePort);
        LocalCluster second = null;
        try (LocalCluster first = members.workDir(workDir.resolve("first")).start();
             StreamGridClient client = StreamGridClient.connect(first.clientSettings())) {
            final IMap<Long, Tick> map = client.hazelcast().getMap(MAP);
            final ContinuousQueryTest.Writer writer = new ContinuousQueryTest.Writer(map, () -> { }, Duration.ofSeconds(60), false);
            writer.write(KEYS);
            final ContinuousQueryTest.Recorder recorder = new ContinuousQueryTest.Recorder();
            try (Subscription subscription = client.subscribe(MAP, "bucket < 5", recorder, SubscriptionOptions.defaults());
                 LocalView view = client.localView(MAP, "version > 0")) {
                writer.write(3 * KEYS);
                await().atMost(Duration.ofSeconds(60)).until(() -> recorder.view().equals(versions(client, "bucket < 5")));
                await().atMost(Duration.ofSeconds(60)).until(() -> view.size() == KEYS);

                first.stopAll();
                second = members.workDir(workDir.resolve("second")).start();
                // The new cluster is empty: every key written once more, in its 5th version (other buckets, tags).
                writer.write(KEYS);

                final Map<Object, Long> expected = versions(client, "bucket < 5");
                try {
                    await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                            .until(() -> recorder.view().equals(expected));
                } finally {
                    System.out.println("subscriber after the cluster was replaced: " + ContinuousQueryTest.comparison(expected,
                            recorder.view()) + "; " + subscription.resyncs() + " RESYNC");
                }
                assertThat(subscription.resyncs()).as("the subscription said it resynchronised").isPositive();
                final Map<Object, Long> viewExpected = versions(client, "version > 0");
                await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                        .until(() -> versionsOf(view).equals(viewExpected));
                assertThat(viewExpected).as("every key of the new cluster, in its 5th version").hasSize(KEYS)
                        .allSatisfy((key, version) -> assertThat(version).isEqualTo(5L));
            }
        } finally {
            if (second != null) {
                second.close();
            }
        }
    }

    private static Map<Object, Long> versions(final StreamGridClient client, final String where) {
        return ContinuousQueryTest.serverVersions(client, MAP, where);
    }

    private static Map<Object, Long> versionsOf(final LocalView view) {
        final Map<Object, Long> versions = new HashMap<>();
        view.forEach((k, v) -> versions.put(k, ((Tick) v).version()));
        return versions;
    }
}
