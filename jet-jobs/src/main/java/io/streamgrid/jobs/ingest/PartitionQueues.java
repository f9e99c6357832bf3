package io.streamgrid.jobs.ingest;

import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptAppender;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.queue.RollCycles;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueue;
import net.openhft.chronicle.queue.impl.single.SingleChronicleQueueBuilder;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.DirectBuffer;

import java.nio.file.Path;

/**
 * The Chronicle Queues of a log, one per partition ({@code p-000}, {@code p-001}, ...), with an
 * appender per partition created on first use: where a {@link SchemaLog} stores its records.
 * Appending through {@link #append} is for one thread at a time; readers are independent.
 */
final class PartitionQueues implements AutoCloseable {
    private final SingleChronicleQueue[] queues;
    private final ExcerptAppender[] appenders;
    private final Thread[] appendingThreads;

    PartitionQueues(final Path dir, final int partitions) {
        queues = new SingleChronicleQueue[partitions];
        appenders = new ExcerptAppender[partitions];
        appendingThreads = new Thread[partitions];
        for (int p = 0; p < partitions; p++) {
            queues[p] = SingleChronicleQueueBuilder.binary(dir.resolve(String.format("p-%03d", p)))
                    .rollCycle(RollCycles.FAST_DAILY)
                    .build();
        }
    }

    int count() {
        return queues.length;
    }

    /**
     * Appends {@code length} bytes as one record of {@code partition}; returns its index. One thread
     * at a time: a caller that appends from several threads (a member's offload threads) orders its
     * calls itself, e.g. by a lock.
     */
    long append(final int partition, final DirectBuffer buffer, final int offset, final int length) {
        ExcerptAppender appender = appenders[partition];
        if (appender == null) {
            appender = queues[partition].createAppender();
            appenders[partition] = appender;
        } else if (appendingThreads[partition] != Thread.currentThread()) {
            // Chronicle binds an appender to the first thread that used it while that thread lives; the caller's
            // ordering makes the hand-over safe, so tell Chronicle the new thread owns it now.
            appender.singleThreadedCheckReset();
        }
        appendingThreads[partition] = Thread.currentThread();
        return write(appender, buffer, offset, length);
    }

    /** As {@link #append}, from any thread: a fresh appender each time (for rare records such as heartbeats). */
    long appendFromAnyThread(final int partition, final DirectBuffer buffer, final int offset, final int length) {
        try (ExcerptAppender appender = queues[partition].createAppender()) {
            return write(appender, buffer, offset, length);
        }
    }

    /** Records of {@code partition} after {@code lastReadIndex} (all of them after {@code START}); from the index, not the records. */
    long recordsAfter(final int partition, final long lastReadIndex) {
        final SingleChronicleQueue queue = queues[partition];
        final long last = queue.lastIndex();
        if (last < 0) {
            return 0; // nothing appended yet
        }
        // countExcerpts counts from its first index up to, not including, its second.
        return lastReadIndex == PartitionReader.START ? queue.countExcerpts(queue.firstIndex(), last) + 1
                : queue.countExcerpts(lastReadIndex, last);
    }

    /** The index of {@code partition}'s last record, {@link PartitionReader#START} when it has none. */
    long lastIndex(final int partition) {
        final long last = queues[partition].lastIndex();
        return last < 0 ? PartitionReader.START : last;
    }

    ExcerptTailer tailer(final int partition) {
        return queues[partition].createTailer();
    }

    private static long write(final ExcerptAppender appender, final DirectBuffer buffer, final int offset, final int length) {
        try (DocumentContext dc = appender.writingDocument()) {
            final Bytes<?> bytes = dc.wire().bytes();
            final byte[] array = buffer.byteArray();
            if (array != null) {
                bytes.write(array, (int) buffer.wrapAdjustment() + offset, length);
            } else {
                for (int i = 0; i < length; i++) {
                    bytes.writeByte(buffer.getByte(offset + i));
                }
            }
        }
        return appender.lastIndexAppended();
    }

    @Override
    public void close() {
        for (final ExcerptAppender appender : appenders) {
            if (appender != null) {
                appender.close();
            }
        }
        for (final SingleChronicleQueue queue : queues) {
            queue.close();
        }
    }
}
