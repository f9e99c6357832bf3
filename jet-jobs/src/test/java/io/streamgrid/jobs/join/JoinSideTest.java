package io.streamgrid.jobs.join;

import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** A join side's kept events: sorted by time (ties in arrival order), found by range, expired as a prefix, saved and read back. */
class JoinSideTest {
    @Test
    void when_eventsArriveOutOfOrder_then_theyAreKeptInTimeOrderFoundByRangeAndExpiredAsAPrefix() throws IOException {
        final JoinSide side = new JoinSide();
        final Random random = new Random(1);
        final List<long[]> added = new ArrayList<>(); // {time, arrival}
        for (int i = 0; i < 500; i++) {
            final long time = i * 10L - random.nextInt(300);
            final byte[] record = ("event-" + i).getBytes(StandardCharsets.US_ASCII);
            side.add(new UnsafeBuffer(record), 0, record.length, time, time + 1_000);
            added.add(new long[] {time, i});
        }
        added.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
        assertThat(texts(side)).as("time order, ties in arrival order").isEqualTo(added.stream().map(a -> "event-" + a[1]).toList());

        final int first = side.firstAtOrAfter(2_000);
        assertThat(side.time(first)).isGreaterThanOrEqualTo(2_000);
        assertThat(first == 0 || side.time(first - 1) < 2_000).isTrue();
        assertThat(side.firstAtOrAfter(Long.MAX_VALUE)).isEqualTo(500);

        side.expire(3_000); // expiry time + 1000 <= 3000: times up to 2000
        assertThat(texts(side)).isEqualTo(added.stream().filter(a -> a[0] + 1_000 > 3_000).map(a -> "event-" + a[1]).toList());

        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        side.write(new DataOutputStream(bytes));
        final JoinSide read = JoinSide.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
        assertThat(texts(read)).isEqualTo(texts(side));
        read.expire(Long.MAX_VALUE);
        assertThat(read.count()).isZero();
    }

    private static List<String> texts(final JoinSide side) {
        final List<String> texts = new ArrayList<>();
        for (int i = 0; i < side.count(); i++) {
            texts.add(side.buffer().getStringWithoutLengthAscii(side.offset(i), side.length(i)));
        }
        return texts;
    }
}
