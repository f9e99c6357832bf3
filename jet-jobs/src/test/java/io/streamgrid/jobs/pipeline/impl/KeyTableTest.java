package io.streamgrid.jobs.pipeline.impl;

import io.streamgrid.jobs.keyed.StateCodec;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class KeyTableTest {
    /**
     * A key met for the first time is handed out without joining the table; the table takes it once
     * it keeps state or a timer, keeps handing out that same entry, and drops it when it keeps nothing
     * again — for long and string keys, and across a snapshot.
     */
    @Test
    void when_aKeyKeepsSomethingOnlyForAWhile_then_theTableHoldsItExactlyThatWhile() throws Exception {
        for (final boolean stringKeys : new boolean[] {false, true}) {
            final KeyTable<long[]> table = new KeyTable<>(stringKeys, StateCodec.longs(1));
            final UnsafeBuffer key = keyBytes(stringKeys, "k-7");

            final KeyEntry<long[]> passing = table.entryAt(key, 0);
            table.settle(passing);
            assertThat(table.size()).as("a key that kept nothing").isZero();

            final KeyEntry<long[]> keeping = table.entryAt(key, 0);
            keeping.state = new long[] {42};
            table.settle(keeping);
            assertThat(table.size()).isEqualTo(1);
            assertThat(table.entryAt(key, 0)).as("the kept key's entry").isSameAs(keeping);

            final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            table.write(new DataOutputStream(bytes));
            final KeyTable<long[]> restored = new KeyTable<>(stringKeys, StateCodec.longs(1));
            restored.read(new DataInputStream(new ByteArrayInputStream(bytes.toByteArray())));
            final KeyEntry<long[]> back = restored.entryAt(key, 0);
            assertThat(back.state).containsExactly(42);
            back.state = null;
            restored.settle(back);
            assertThat(restored.size()).as("a restored key that keeps nothing any more").isZero();

            keeping.state = null;
            table.settle(keeping);
            assertThat(table.size()).isZero();
            assertThat(table.entryAt(key, 0)).as("a dropped key comes back as a new entry").isNotSameAs(keeping);
        }
    }

    private static UnsafeBuffer keyBytes(final boolean stringKey, final String text) {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[64]);
        if (stringKey) {
            final byte[] utf8 = text.getBytes(StandardCharsets.UTF_8);
            buffer.putShort(0, (short) utf8.length, ByteOrder.LITTLE_ENDIAN);
            buffer.putBytes(2, utf8);
        } else {
            buffer.putLong(0, 7L, ByteOrder.LITTLE_ENDIAN);
        }
        return buffer;
    }
}
