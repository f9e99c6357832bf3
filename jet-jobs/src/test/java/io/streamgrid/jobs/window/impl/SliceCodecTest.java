package io.streamgrid.jobs.window.impl;

import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.window.VarLongs;
import io.streamgrid.jobs.window.WindowAggregation;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInput;
import java.io.DataInputStream;
import java.io.DataOutput;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SliceCodecTest {
    private final SliceCodec<long[]> codec = new SliceCodec<>(new LongValues());

    @Test
    void when_aSliceHoldsMostNumbers_then_itIsWrittenAsABitmapAndReadBackInNumberOrder() throws IOException {
        final Map<Integer, Long> entries = new TreeMap<>();
        final Random random = new Random(3);
        for (int number = 0; number < 5_000; number++) {
            if (random.nextInt(10) < 8) {
                entries.put(number, (long) random.nextInt(60)); // one byte each, zigzag-encoded
            }
        }
        final byte[] bytes = write(entries);

        assertThat(readBack(bytes)).isEqualTo(entries);
        // 79 words of bitmap and one byte a value; numbers as differences would add a byte an entry.
        assertThat(bytes.length).isLessThan(entries.size() + 79 * 8 + 16);
    }

    @Test
    void when_aSliceHoldsFewNumbers_then_itIsWrittenAsDifferencesAndReadBack() throws IOException {
        final Map<Integer, Long> entries = new TreeMap<>(Map.of(3, 1L, 70_000, -2L, 70_001, 5L, 1_000_000, 300L));
        final byte[] bytes = write(entries);

        assertThat(readBack(bytes)).isEqualTo(entries);
        assertThat(bytes.length).as("a bitmap over these numbers would take 125 kB").isLessThan(20);
    }

    @Test
    void when_theCodecIsReused_then_aSliceHoldsNothingOfThePreviousOne() throws IOException {
        write(Map.of(1, 10L, 900, 20L));
        final Map<Integer, Long> second = new TreeMap<>(Map.of(2, 30L, 5, 40L));

        assertThat(readBack(write(second))).isEqualTo(second);
        assertThat(readBack(write(Map.of()))).isEmpty();
    }

    @Test
    void when_theLayoutByteIsUnknown_then_readingFailsNamingADamagedSnapshot() throws IOException {
        final byte[] bytes = write(Map.of(1, 10L));
        bytes[1] = 7; // after the entry count

        assertThatThrownBy(() -> readBack(bytes)).isInstanceOf(IOException.class).hasMessageContaining("damaged snapshot");
    }

    @Test
    void when_aBitmapHoldsFewerEntriesThanItsCount_then_readingFails() throws IOException {
        final Map<Integer, Long> entries = new TreeMap<>();
        for (int number = 0; number < 64; number++) {
            entries.put(number, 1L);
        }
        final byte[] bytes = write(entries);
        bytes[0] = 65; // the count, one more than the bitmap's bits

        assertThatThrownBy(() -> readBack(bytes)).isInstanceOf(IOException.class).hasMessageContaining("damaged snapshot");
    }

    /** Adds the entries in a shuffled order, as a hash map hands them over. */
    private byte[] write(final Map<Integer, Long> entries) throws IOException {
        final List<Integer> numbers = new ArrayList<>(entries.keySet());
        Collections.shuffle(numbers, new Random(5));
        for (final int number : numbers) {
            codec.add(number, new long[]{entries.get(number)});
        }
        final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        codec.writeTo(new DataOutputStream(bytes));
        return bytes.toByteArray();
    }

    private static Map<Integer, Long> readBack(final byte[] bytes) throws IOException {
        final Map<Integer, Long> read = new TreeMap<>();
        final List<Integer> order = new ArrayList<>();
        final DataInputStream in = new DataInputStream(new ByteArrayInputStream(bytes));
        SliceCodec.read(in, new LongValues(), (number, value) -> {
            order.add(number);
            read.put(number, value[0]);
        });
        assertThat(in.available()).as("bytes left after the slice").isZero();
        assertThat(order).as("entries in number order").isSorted();
        return read;
    }

    /** One long a key, written as a signed varint. */
    private static final class LongValues implements WindowAggregation<long[]> {
        @Override
        public long[] create() {
            return new long[1];
        }

        @Override
        public void accumulate(final long[] accumulator, final SchemaRecord event) {
            accumulator[0]++;
        }

        @Override
        public void combine(final long[] target, final long[] other) {
            target[0] += other[0];
        }

        @Override
        public void write(final long[] accumulator, final DataOutput out) throws IOException {
            VarLongs.writeSigned(out, accumulator[0]);
        }

        @Override
        public long[] read(final DataInput in) throws IOException {
            return new long[]{VarLongs.readSigned(in)};
        }
    }
}
