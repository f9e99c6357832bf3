package io.streamgrid.client;

import com.hazelcast.map.IMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A subscription must never die silently: a listener that throws does not stop it, and when it
 * truly cannot go on it says so. One member in this JVM: these tests are about the client side.
 */
class SubscriptionFailureTest {
    @TempDir
    Path dir;
    private OneMemberGrid grid;
    private StreamGridClient client;

    @BeforeEach
    void start() throws Exception {
        grid = OneMemberGrid.start(dir);
        client = grid.client;
    }

    @AfterEach
    void stop() {
        if (grid != null) {
            grid.close();
        }
    }

    /** Remembers every key's last value; throws on every third delta after recording it. */
    private static final class ThrowingListener implements DeltaListener {
        final Map<Object, Object> seen = new ConcurrentHashMap<>();
        final AtomicReference<Throwable> failure = new AtomicReference<>();
        private int calls;

        @Override
        public void onSnapshot(final Map<Object, Object> entries) {
            seen.putAll(entries);
        }

        @Override
        public void onDelta(final Delta delta) {
            seen.put(delta.key(), delta.value());
            if (++calls % 3 == 0) {
                throw new IllegalStateException("listener bug on call " + calls);
            }
        }

        @Override
        public void onFailure(final Throwable cause) {
            failure.set(cause);
        }
    }

    /**
     * A listener whose onSnapshot throws has no initial state for the deltas that would follow: the
     * subscription used to stay RUNNING with the error only counted. It must not start: subscribe
     * fails naming the listener's error, the listener hears of it, and nothing reads for it.
     */
    @Test
    void when_listenerThrowsInOnSnapshot_then_subscribeFailsNamingItAndNothingGoesOn() {
        final IMap<Integer, Integer> map = client.hazelcast().getMap("state.snapshot-failure");
        map.put(1, 1);
        final AtomicReference<Throwable> told = new AtomicReference<>();
        final DeltaListener listener = new DeltaListener() {
            @Override
            public void onSnapshot(final Map<Object, Object> entries) {
                throw new IllegalStateException("listener bug in onSnapshot");
            }

            @Override
            public void onDelta(final Delta delta) {
            }

            @Override
            public void onFailure(final Throwable cause) {
                told.set(cause);
            }
        };

        assertThatThrownBy(() -> client.subscribe("state.snapshot-failure", "this >= 0", listener, SubscriptionOptions.defaults()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("did not start")
                .hasMessageContaining("onSnapshot")
                .hasMessageContaining("listener bug in onSnapshot");
        assertThat(told.get()).as("the listener was told").isNotNull();
    }

    @Test
    void when_listenerThrows_then_theSubscriptionGoesOnAndCountsTheErrors() {
        final ThrowingListener listener = new ThrowingListener();
        final Subscription subscription = client.subscribe("state.failure-test", "this >= 0", listener, SubscriptionOptions.defaults());
        final IMap<Integer, Integer> map = client.hazelcast().getMap("state.failure-test");
        for (int i = 0; i < 300; i++) {
            map.put(i, i);
        }

        await().atMost(Duration.ofSeconds(30)).until(() -> listener.seen.size() == 300 && subscription.listenerErrors() == 100
                && subscription.delivered() == 300);
        assertThat(subscription.state()).isEqualTo(Subscription.State.RUNNING);
        assertThat(subscription.delivered()).isEqualTo(300);
        assertThat(listener.seen).containsEntry(299, 299);
        assertThat(listener.failure.get()).isNull();
        subscription.close();
        assertThat(subscription.state()).isEqualTo(Subscription.State.CLOSED);
    }

    /** A value with a schema: the member has the class (it runs in this JVM). */
    record Reading(String machine, double celsius) {
    }

    @Test
    void when_whereNamesAFieldTheValuesLack_then_queryAndSubscribeFailNamingIt() {
        client.hazelcast().getMap("state.readings").put("m1", new Reading("m1", 61.5));

        assertThat(client.query("state.readings", "celsius > 60")).containsOnlyKeys("m1");
        assertThatThrownBy(() -> client.query("state.readings", "celcius > 60"))
                .hasMessageContaining("has no field 'celcius'; its fields are [machine, celsius]");
        assertThatThrownBy(() -> client.subscribe("state.readings", "celcius > 60", new ThrowingListener(), SubscriptionOptions.defaults()))
                .hasMessageContaining("has no field 'celcius'");
    }

    /** A value of another shape, without the field the subscription's predicate reads. */
    record Note(String machine, String text) {
    }

    /**
     * A value the predicate cannot judge arrives after the subscription started: the journal read
     * that meets it fails the same way every time (on the member that pushes the changes, or on the
     * client reading itself). Trying again for ever would leave the subscription RUNNING and silent;
     * it must end, naming the field, and tell its listener.
     */
    @Test
    void when_aValueWrittenLaterLacksThePredicatesField_then_theSubscriptionFailsNamingIt() {
        client.hazelcast().getMap("state.later").put("m1", new Reading("m1", 61.5));
        final ThrowingListener listener = new ThrowingListener();
        final Subscription subscription = client.subscribe("state.later", "celsius > 60", listener, SubscriptionOptions.defaults());

        client.hazelcast().getMap("state.later").put("m2", new Note("m2", "fan replaced"));

        await().atMost(Duration.ofSeconds(30)).until(() -> subscription.state() == Subscription.State.FAILED);
        assertThat(subscription.failure()).hasMessageContaining("has no field 'celsius'");
        assertThat(listener.failure.get()).isSameAs(subscription.failure());
    }

    @Test
    void when_clientIsShutDown_then_theSubscriptionReportsFailedWithTheCause() {
        final ThrowingListener listener = new ThrowingListener();
        final Subscription subscription = client.subscribe("state.failure-test", "this >= 0", listener, SubscriptionOptions.defaults());

        client.hazelcast().shutdown();

        await().atMost(Duration.ofSeconds(30)).until(() -> subscription.state() == Subscription.State.FAILED);
        assertThat(subscription.failure()).hasMessageContaining("client of this subscription was shut down");
        assertThat(listener.failure.get()).isSameAs(subscription.failure());
    }
}
