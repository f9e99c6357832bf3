package io.streamgrid.jobs.window.impl;

import io.streamgrid.jobs.window.VarLongs;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;

class SnapshotOutputTest {

    @Test
    void when_everyKindWritten_then_bytesEqualDataOutputStreamsAndReadBack() throws IOException {
        final SnapshotOutput output = new SnapshotOutput();
        output.writeLong(123); // a first snapshot, discarded by reset
        output.reset();
        writeAll(output);
        final ByteArrayOutputStream reference = new ByteArrayOutputStream();
        try (DataOutputStream stream = new DataOutputStream(reference)) {
            writeAll(stream);
        }

        final byte[] bytes = output.copy(0, output.length());
        assertThat(bytes).isEqualTo(reference.toByteArray());
        final DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        assertThat(in.readInt()).isEqualTo(-7);
        assertThat(in.readLong()).isEqualTo(Long.MIN_VALUE + 3);
        assertThat(in.readBoolean()).isTrue();
        assertThat(in.readDouble()).isEqualTo(2.5);
        assertThat(in.readUTF()).isEqualTo("fenêtre ∑");
    }

    @Test
    void when_writtenPastTheInitialCapacity_then_itGrowsAndKeepsEveryByte() throws IOException {
        final SnapshotOutput output = new SnapshotOutput();
        for (long i = 0; i < 100_000; i++) {
            output.writeLong(i);
        }
        final DataInputStream in = new DataInputStream(new ByteArrayInputStream(output.copy(0, output.length())));
        for (long i = 0; i < 100_000; i++) {
            assertThat(in.readLong()).isEqualTo(i);
        }
        assertThat(in.available()).isZero();
    }

    @Test
    void when_varLongsWrittenFastAndThroughAPlainOutput_then_bytesEqualAndEveryValueReadsBack() throws IOException {
        final long[] values = {0, 1, -1, 63, -64, 64, 127, 128, 16_383, 16_384, 0x0A00_2710L, -0x0A00_2710L,
                Integer.MAX_VALUE, Integer.MIN_VALUE, Long.MAX_VALUE, Long.MIN_VALUE};
        final SnapshotOutput output = new SnapshotOutput();
        final ByteArrayOutputStream reference = new ByteArrayOutputStream();
        try (DataOutputStream stream = new DataOutputStream(reference)) {
            for (int round = 0; round < 2_000; round++) { // past the initial capacity, so the fast path grows it
                for (final long value : values) {
                    VarLongs.writeSigned(output, value);
                    VarLongs.writeUnsigned(output, value);
                    VarLongs.writeSigned(stream, value);
                    VarLongs.writeUnsigned(stream, value);
                }
            }
        }

        final byte[] bytes = output.copy(0, output.length());
        assertThat(bytes).isEqualTo(reference.toByteArray());
        final DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        for (int round = 0; round < 2_000; round++) {
            for (final long value : values) {
                assertThat(VarLongs.readSigned(in)).isEqualTo(value);
                assertThat(VarLongs.readUnsigned(in)).isEqualTo(value);
            }
        }
        assertThat(in.available()).isZero();
        final SnapshotOutput sizes = new SnapshotOutput();
        VarLongs.writeUnsigned(sizes, 127);
        VarLongs.writeSigned(sizes, -64);
        VarLongs.writeSigned(sizes, 10_000);
        assertThat(sizes.length()).as("127 and -64 in one byte each, 10,000 signed in three").isEqualTo(5);
    }

    private static void writeAll(final DataOutput out) throws IOException {
        out.writeInt(-7);
        out.writeLong(Long.MIN_VALUE + 3);
        out.writeBoolean(true);
        out.writeDouble(2.5);
        out.writeUTF("fenêtre ∑");
        out.writeShort(-2);
        out.writeChar('x');
        out.writeFloat(1.5f);
        out.writeByte(200);
        out.write(new byte[] {1, 2, 3}, 1, 2);
        out.writeBytes("ab");
        out.writeChars("cd");
    }
}
