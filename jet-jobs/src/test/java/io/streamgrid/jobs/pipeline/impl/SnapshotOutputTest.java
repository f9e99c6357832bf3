package io.streamgrid.jobs.pipeline.impl;

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
