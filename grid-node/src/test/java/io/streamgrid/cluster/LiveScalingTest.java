package io.streamgrid.cluster;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Design of this test: a writer keeps updating 10,000 keys with increasing values while the
 * cluster grows 2 → 4 and then shrinks gracefully 4 → 2, one member at a time. A reader samples
 * random keys throughout and checks that no key's value ever goes back. At the end every key must
 * hold exactly its last acknowledged write. The migration time of each step is logged.
 */
class LiveScalingTest {
    private static final int KEYS = 10_000;

    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void when_scaledOutAndInUnderWrites_then_noEntryLostAndNoneGoesBack(final TestInfo test) throws Exception {
        try (LocalCluster cluster = LocalCluster.builder().members(2).workDir(TestWorkDir.of(test)).start()) {
            final HazelcastInstance client = cluster.newClient();
            final IMap<Integer, Long> map = client.getMap("state.scaling-test");
            final AcknowledgedWriter writer = new AcknowledgedWriter(map, KEYS).fill().start();
            final MonotonicReader reader = new MonotonicReader(map, writer);
            reader.start();
            final List<String> steps = new ArrayList<>();
            final long writesBeforeScaling = writer.writes();

            for (int target = 3; target <= 4; target++) {
                steps.add(step("scale out to " + target, writer, () -> cluster.addMember()));
            }
            for (int target = 3; target >= 2; target--) {
                final MemberProcess leaving = cluster.members().get(0);
                steps.add(step("scale in to " + target, writer, () -> cluster.stopGracefully(leaving)));
            }

            final long writesWhileScaling = writer.writes() - writesBeforeScaling;
            writer.close();
            reader.stop();
            steps.forEach(step -> System.out.println("migration step: " + step));
            final AcknowledgedWriter.Verification result = writer.verify();
            System.out.println("after 2 -> 4 -> 2 under writes: " + result + ", " + writer.writes() + " writes ("
                    + writer.retries() + " retried), " + reader.reads.get() + " monotonic reads, "
                    + reader.regressions.get() + " went back");

            assertThat(result.isExact()).as(result.toString()).isTrue();
            assertThat(reader.regressions.get()).as("values that went back").isZero();
            assertThat(reader.reads.get()).as("the reader ran").isPositive();
            // Per step it may be zero: a single writer stalls while its partition migrates.
            assertThat(writesWhileScaling).as("writes acknowledged while scaling").isPositive();
            assertThat(cluster.members()).hasSize(2);
        }
    }

    private static String step(final String name, final AcknowledgedWriter writer, final Runnable action) {
        final long writesBefore = writer.writes();
        final long start = System.nanoTime();
        action.run();
        final long millis = (System.nanoTime() - start) / 1_000_000;
        final long writesDuring = writer.writes() - writesBefore;
        return name + ": " + millis + " ms until safe, " + writesDuring + " writes acknowledged meanwhile";
    }

    /** Reads random keys and counts any value older than one it has already seen for that key. */
    private static final class MonotonicReader {
        final AtomicLong reads = new AtomicLong();
        final AtomicLong regressions = new AtomicLong();
        private final IMap<Integer, Long> map;
        private final AcknowledgedWriter writer;
        private final long[] highestSeen = new long[KEYS];
        private final Thread thread;
        private volatile boolean running = true;

        MonotonicReader(final IMap<Integer, Long> map, final AcknowledgedWriter writer) {
            this.map = map;
            this.writer = writer;
            this.thread = new Thread(this::readLoop, "monotonic-reader");
            this.thread.setDaemon(true);
        }

        void start() {
            thread.start();
        }

        void stop() throws InterruptedException {
            running = false;
            thread.join();
        }

        private void readLoop() {
            while (running) {
                final int key = ThreadLocalRandom.current().nextInt(KEYS);
                final Long value;
                try {
                    value = map.get(key);
                } catch (final RuntimeException e) {
                    continue; // a read that fails proves nothing either way; the next one counts
                }
                final long version = value == null ? 0 : writer.versionOf(value);
                if (version < highestSeen[key]) {
                    regressions.incrementAndGet();
                    System.out.println("key " + key + " went back from version " + highestSeen[key] + " to " + version);
                }
                highestSeen[key] = Math.max(highestSeen[key], version);
                reads.incrementAndGet();
            }
        }
    }
}
