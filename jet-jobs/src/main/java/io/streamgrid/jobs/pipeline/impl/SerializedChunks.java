package io.streamgrid.jobs.pipeline.impl;

import com.hazelcast.internal.serialization.Data;
import com.hazelcast.internal.serialization.InternalSerializationService;
import com.hazelcast.internal.serialization.impl.HeapData;
import com.hazelcast.jet.core.Processor;
import com.hazelcast.jet.impl.execution.init.Contexts;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Snapshot chunks handed to Jet already in Hazelcast's serialized form of a {@code byte[]} — the
 * form Jet's outbox would produce from the array, so a restore reads back the same array as before.
 * Why: Jet's outbox serializes every value it is offered, and for a chunk of a megabyte or more
 * that is a buffer grown by doubling from a few kilobytes, then a copy of it — two to three
 * megabyte-sized arrays per chunk, all garbage at once. A value that already is serialized data
 * Jet takes as it is. In the exactly-once benchmark those copies were most of the snapshot's
 * allocation, and the humongous ones started concurrent collections (G1 "Humongous Allocation")
 * in the runs that came out slowest.
 *
 * <p>The form is checked once against the member's own serialization of a probe array; where it
 * differs (another byte order or partitioning configured) or the processor runs outside a member,
 * chunks go to Jet as plain arrays ({@link #enabled()} false) and Jet serializes them as always.
 */
final class SerializedChunks {
    /** Partition hash, serializer type id, array length. */
    static final int HEADER_BYTES = 12;
    /** Hazelcast's type id for {@code byte[]} (its constant serializers). */
    private static final int BYTE_ARRAY_TYPE_ID = -12;

    private final boolean enabled;

    private SerializedChunks(final boolean enabled) {
        this.enabled = enabled;
    }

    /** For a processor's context: enabled when the member's serialization writes {@code byte[]} as {@link #header} does. */
    static SerializedChunks of(final Processor.Context context) {
        return new SerializedChunks(context instanceof Contexts.InternalProcSupplierCtx internal
                && matches(internal.serializationService()));
    }

    /** Whether {@code serialization} writes a {@code byte[]} exactly as {@link #header} and the bytes after it. */
    static boolean matches(final InternalSerializationService serialization) {
        final byte[] probe = {1, 2, 3, 5, 8};
        final byte[] ours = new byte[HEADER_BYTES + probe.length];
        header(ours, probe.length);
        System.arraycopy(probe, 0, ours, HEADER_BYTES, probe.length);
        final Data theirs = serialization.toData(probe);
        return Arrays.equals(theirs.toByteArray(), ours);
    }

    /** Whether chunks are handed over serialized. */
    boolean enabled() {
        return enabled;
    }

    /**
     * Writes the header of a serialized array of {@code length} bytes into {@code into}'s first
     * {@value #HEADER_BYTES} bytes (big-endian: no partition hash, the type id, the length); the
     * array's bytes follow it.
     */
    static void header(final byte[] into, final int length) {
        final UnsafeBuffer header = new UnsafeBuffer(into, 0, HEADER_BYTES);
        header.putInt(0, 0, ByteOrder.BIG_ENDIAN);
        header.putInt(4, BYTE_ARRAY_TYPE_ID, ByteOrder.BIG_ENDIAN);
        header.putInt(8, length, ByteOrder.BIG_ENDIAN);
    }

    /** {@code serialized}, a header and the bytes after it, as the value to offer. */
    static Object value(final byte[] serialized) {
        return new HeapData(serialized);
    }
}
