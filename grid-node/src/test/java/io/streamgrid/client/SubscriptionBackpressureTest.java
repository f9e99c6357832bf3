package io.streamgrid.client;

import com.hazelcast.map.IMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A listener slower than the writer fills the subscription's buffer. While the journal still holds
 * the changes it has not read, the subscription must wait for the listener (stop reading, then go on
 * from where each partition stopped) rather than throw the buffered position away and re-read the
 * map: every change arrives as its own delta, in write order, and nothing is resynchronised.
 */
class SubscriptionBackpressureTest {
    private static final int KEYS = 100;
    private static final int WRITES = 8_000;

    @TempDir
    Path dir;

    /**
     * Design of this test: one member whose journal holds 1,000 changes per partition (the 8,000
     * writes over 100 keys put at most a few hundred in any partition), a buffer of 16 deltas and a
     * listener that sleeps 1 ms per delta while the writer goes as fast as it can: the buffer
     * overflows many times. Oracle: the values written, per key, in order.
     */
    @Test
    void when_listenerIsSlowerThanTheWriter_then_readingWaitsForItAndEveryChangeArrivesWithoutResync() throws Exception {
        try (OneMemberGrid grid = OneMemberGrid.start(dir, "state-maps: {event-journal-capacity: 271000}")) {
            final IMap<Integer, Long> map = grid.client.hazelcast().getMap("state.backpressure");
            final Map<Integer, List<Long>> written = new ConcurrentHashMap<>();
            final SlowRecorder listener = new SlowRecorder();
            try (Subscription subscription = grid.client.subscribe("state.backpressure", "this >= 0", listener,
                    new SubscriptionOptions(16))) {
                for (int i = 0; i < WRITES; i++) {
                    final int key = i % KEYS;
                    map.set(key, (long) i);
                    written.computeIfAbsent(key, k -> new ArrayList<>()).add((long) i);
                }
                await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200))
                        .until(() -> listener.deliveries() >= WRITES || subscription.resyncs() > 0);
                int missingOrOutOfOrder = 0;
                for (int key = 0; key < KEYS; key++) {
                    if (!written.get(key).equals(listener.received.getOrDefault(key, List.of()))) {
                        missingOrOutOfOrder++;
                    }
                }
                System.out.println(WRITES + " changes expected as deltas, " + listener.deliveries() + " delivered; "
                        + subscription.overflows() + " overflows, " + subscription.resyncs() + " resyncs, "
                        + missingOrOutOfOrder + " keys whose deltas differ from their writes");
                assertThat(subscription.overflows()).as("the slow listener filled the buffer").isPositive();
                assertThat(subscription.resyncs()).as("nothing resynchronised: the journal still held every change").isZero();
                assertThat(missingOrOutOfOrder).as("keys whose deltas differ from the writes, in order").isZero();
                assertThat(listener.deliveries()).isEqualTo(WRITES);
            }
        }
    }

    /** Records every delta's value per key, sleeping 1 ms per delta. */
    private static final class SlowRecorder implements DeltaListener {
        final Map<Integer, List<Long>> received = new ConcurrentHashMap<>();

        @Override
        public void onSnapshot(final Map<Object, Object> entries) {
            // the map is empty when the subscription starts
        }

        @Override
        public void onDelta(final Delta delta) {
            received.computeIfAbsent((Integer) delta.key(), k -> java.util.Collections.synchronizedList(new ArrayList<>()))
                    .add((Long) delta.value());
            try {
                Thread.sleep(1);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }

        long deliveries() {
            return received.values().stream().mapToLong(List::size).sum();
        }
    }
}
