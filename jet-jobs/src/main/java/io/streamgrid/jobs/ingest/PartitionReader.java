package io.streamgrid.jobs.ingest;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

/**
 * Reads one partition in append order into a reused buffer: no allocation per record. Not
 * thread-safe.
 */
public final class PartitionReader implements LogReader {
    /** "Nothing read yet": a reader positioned here starts at the first record. */
    public static final long START = LogReader.START;

    private final int partition;
    private final ExcerptTailer tailer;
    private final UnsafeBuffer buffer;
    private final int maxCapacity;
    private long lastIndex;

    /** A reader whose buffer grows from {@code capacity} to {@code maxCapacity} as longer records come. */
    PartitionReader(final int partition, final ExcerptTailer tailer, final long lastReadIndex, final int capacity,
                    final int maxCapacity) {
        this.buffer = new UnsafeBuffer(new byte[capacity]);
        this.maxCapacity = maxCapacity;
        this.partition = partition;
        this.tailer = tailer;
        this.lastIndex = lastReadIndex;
        if (lastReadIndex == START) {
            tailer.toStart();
        } else {
            if (!tailer.moveToIndex(lastReadIndex)) {
                throw new IllegalStateException("log partition " + partition + " has no record at index "
                        + lastReadIndex + " to resume after: was the log deleted or truncated? Data loss is possible");
            }
            skipOne();
        }
    }

    private void skipOne() {
        try (DocumentContext dc = tailer.readingDocument()) {
            if (!dc.isPresent()) {
                throw new IllegalStateException("bug: record at index " + lastIndex + " vanished in partition " + partition);
            }
        }
    }

    /**
     * Reads the next record into {@link #buffer()}; returns its full length in bytes (of which at
     * most the buffer's capacity were read), or -1 when there is nothing new yet.
     */
    @Override
    public int next() {
        try (DocumentContext dc = tailer.readingDocument()) {
            if (!dc.isPresent()) {
                return -1;
            }
            final Bytes<?> bytes = dc.wire().bytes();
            final int length = (int) bytes.readRemaining();
            growFor(buffer, length, maxCapacity);
            final byte[] array = buffer.byteArray();
            final int n = Math.min(length, array.length);
            bytes.read(array, 0, n);
            lastIndex = dc.index();
            return length;
        }
    }

    /** Grows {@code buffer} (by powers of two, up to {@code maxCapacity}) to hold a record of {@code length} bytes. */
    static void growFor(final UnsafeBuffer buffer, final int length, final int maxCapacity) {
        if (length > buffer.capacity() && buffer.capacity() < maxCapacity) {
            buffer.wrap(new byte[Math.min(maxCapacity, Integer.highestOneBit(length - 1) << 1)]);
        }
    }

    @Override
    public DirectBuffer buffer() {
        return buffer;
    }

    /** Index of the record last returned by {@link #next()}, or the resume index. */
    @Override
    public long lastIndex() {
        return lastIndex;
    }

    @Override
    public int partition() {
        return partition;
    }

    @Override
    public void close() {
        tailer.close();
    }
}
