package io.streamgrid.jobs.window;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class VarLongTest {

    private static byte[] encode(final long value) throws IOException {
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        VarLong.write(new DataOutputStream(bytes), value);
        return bytes.toByteArray();
    }

    private static long decode(final byte[] bytes) throws IOException {
        final DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        final long value = VarLong.read(in);
        assertThat(in.available()).as("every byte read, none more").isZero();
        return value;
    }

    @Test
    void when_valuesOfEveryMagnitudeAreWritten_then_theyReadBackAndSmallOnesAreShort() throws IOException {
        final long[] edges = {0, 1, -1, 63, -64, 64, -65, Integer.MAX_VALUE, Integer.MIN_VALUE, 0xFFFF_FFFFL,
                Long.MAX_VALUE, Long.MIN_VALUE, Long.MAX_VALUE - 1, Long.MIN_VALUE + 1};
        for (final long value : edges) {
            assertThat(decode(encode(value))).as("value %d", value).isEqualTo(value);
        }
        final SplittableRandom random = new SplittableRandom(17);
        for (int i = 0; i < 100_000; i++) {
            final long value = random.nextLong() >> random.nextInt(64);
            assertThat(decode(encode(value))).isEqualTo(value);
        }
        assertThat(encode(0)).hasSize(1);
        assertThat(encode(63)).hasSize(1);
        assertThat(encode(-64)).hasSize(1);
        assertThat(encode(64)).hasSize(2);
        assertThat(encode(0xFFFF_FFFFL)).as("an IPv4 key").hasSize(5);
        assertThat(encode(Long.MIN_VALUE)).hasSize(10);
    }

    @Test
    void when_inputIsCutOrOverlong_then_readFailsInsteadOfReturningAValue() {
        final byte[] cut = {(byte) 0x80, (byte) 0x80};
        assertThatThrownBy(() -> VarLong.read(new DataInputStream(new ByteArrayInputStream(cut))))
                .isInstanceOf(EOFException.class);
        final byte[] overlong = new byte[11];
        java.util.Arrays.fill(overlong, (byte) 0xFF);
        assertThatThrownBy(() -> VarLong.read(new DataInputStream(new ByteArrayInputStream(overlong))))
                .hasMessageContaining("past 10 bytes");
    }
}
