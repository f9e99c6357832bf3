package io.streamgrid.jobs.pipeline.impl;

import com.hazelcast.internal.serialization.InternalSerializationService;
import com.hazelcast.internal.serialization.impl.DefaultSerializationServiceBuilder;
import org.junit.jupiter.api.Test;

import java.nio.ByteOrder;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A snapshot chunk handed to Jet already serialized must be what Jet would have made of the array
 * itself: Jet takes it as it is, and a restore reads back exactly the chunk's bytes. Where the
 * member serializes differently, chunks go as arrays.
 */
class SerializedChunksTest {

    @Test
    void when_memberSerializesByDefault_then_aSerializedChunkIsTakenAsItIsAndReadsBackAsTheSameArray() {
        final InternalSerializationService serialization = new DefaultSerializationServiceBuilder().build();
        assertThat(SerializedChunks.matches(serialization)).isTrue();

        final byte[] chunk = new byte[100_000];
        new Random(3).nextBytes(chunk);
        final byte[] serialized = new byte[SerializedChunks.HEADER_BYTES + chunk.length];
        SerializedChunks.header(serialized, chunk.length);
        System.arraycopy(chunk, 0, serialized, SerializedChunks.HEADER_BYTES, chunk.length);
        final Object value = SerializedChunks.value(serialized);

        assertThat((Object) serialization.toData(value)).as("Jet's outbox serializes nothing").isSameAs(value);
        assertThat(serialization.toData(chunk).toByteArray()).as("what Jet would have made of the array").isEqualTo(serialized);
        assertThat((byte[]) serialization.toObject(value)).as("what a restore reads").isEqualTo(chunk);
    }

    @Test
    void when_memberSerializesLittleEndian_then_chunksGoAsArrays() {
        final InternalSerializationService littleEndian = new DefaultSerializationServiceBuilder()
                .setByteOrder(ByteOrder.LITTLE_ENDIAN).build();
        assertThat(SerializedChunks.matches(littleEndian)).isFalse();
    }
}
