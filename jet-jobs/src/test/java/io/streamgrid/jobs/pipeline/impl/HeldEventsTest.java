package io.streamgrid.jobs.pipeline.impl;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.Comparator;
import java.util.SplittableRandom;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

class HeldEventsTest {
    /** What the oracle holds: the order key and what must come back. */
    private record Held(long time, int input, long arrival, long logIndex, byte[] bytes) {
    }

    private static final Comparator<Held> ORDER = Comparator.comparingLong(Held::time).thenComparingInt(Held::input)
            .thenComparingLong(Held::arrival);

    /**
     * Design of this test: 300,000 random adds and releases (times in a narrow range, so many are
     * equal; two inputs; lengths up to 200 bytes, so slots widen while events are held), against a
     * sorted set; every 20,000 operations the buffer is written and read back into a new one, as a
     * snapshot and restore would. Each release must be the oracle's first, with its bytes, input
     * and log index intact.
     */
    @Test
    void when_eventsAreAddedAndReleasedAtRandom_then_theyComeOutByTimeInputAndArrival() throws IOException {
        final SplittableRandom random = new SplittableRandom(7);
        HeldEvents held = new HeldEvents();
        final TreeSet<Held> oracle = new TreeSet<>(ORDER);
        final UnsafeBuffer source = new UnsafeBuffer(new byte[256]);
        long arrival = 0;
        long base = 0;
        int released = 0;
        for (int op = 0; op < 300_000; op++) {
            if (op % 20_000 == 0) {
                held = roundTrip(held);
            }
            if (oracle.isEmpty() || random.nextInt(100) < 52) {
                final int length = op < 150_000 ? 20 + random.nextInt(30) : 20 + random.nextInt(180);
                final byte[] bytes = new byte[length];
                random.nextBytes(bytes);
                source.putBytes(3, bytes);
                final long time = base + random.nextInt(50);
                final int input = random.nextInt(2);
                final long logIndex = random.nextLong();
                held.add(time, input, logIndex, source, 3, length);
                oracle.add(new Held(time, input, arrival++, logIndex, bytes));
                base += random.nextInt(3);
            } else {
                final Held first = oracle.pollFirst();
                assertThat(held.hasDue(first.time())).isTrue();
                assertThat(held.hasDue(first.time() - 1)).isFalse();
                assertThat(held.peekTime()).isEqualTo(first.time());
                final int slot = held.takeFirst();
                assertThat(held.input(slot)).isEqualTo(first.input());
                assertThat(held.logIndex(slot)).isEqualTo(first.logIndex());
                final byte[] bytes = new byte[held.length(slot)];
                held.buffer().getBytes(held.offset(slot), bytes);
                assertThat(bytes).isEqualTo(first.bytes());
                held.free(slot);
                released++;
            }
            assertThat(held.size()).isEqualTo(oracle.size());
        }
        assertThat(released).isGreaterThan(100_000);
    }

    private static HeldEvents roundTrip(final HeldEvents held) throws IOException {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            held.write(out);
        }
        final HeldEvents restored = new HeldEvents();
        restored.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        return restored;
    }
}
