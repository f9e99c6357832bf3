package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.event.EventRecord;
import net.openhft.chronicle.bytes.Bytes;
import net.openhft.chronicle.queue.ExcerptTailer;
import net.openhft.chronicle.wire.DocumentContext;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * The durable ingest log: one Chronicle Queue per source partition under one directory
 * ({@code p-000}, {@code p-001}, ...), holding fixed-layout {@link EventRecord}s. An event goes to
 * partition {@link #partitionOf(long) partitionOf(key)}, so all events of a key are in one
 * partition, in append order — which is what makes windowed results replayable exactly.
 *
 * <p>{@code ingest-log.properties} in the directory records the partition count and record
 * layout; opening a log with another partition count fails rather than silently re-keying.
 *
 * <p>Appending is for one thread per instance (Chronicle appenders are single-threaded); several
 * processes may append to the same directory. Readers are independent of each other.
 */
public final class IngestLog implements AutoCloseable {
    /** "Nothing read yet": a reader positioned here starts at the first record. */
    public static final long START = -1;
    static final String META_FILE = "ingest-log.properties";
    /** Longer records are invalid here; they are reported with their first bytes. */
    private static final int READ_CAPACITY = 256;

    private final Path dir;
    private final PartitionQueues queues;

    private IngestLog(final Path dir, final int partitions) {
        this.dir = dir;
        this.queues = new PartitionQueues(dir, partitions);
    }

    /**
     * Opens the log in {@code dir}, creating it with {@code partitions} partitions if it does not
     * exist.
     *
     * @throws IllegalArgumentException if it exists with another partition count, record length or
     *                                  layout version
     * @throws UncheckedIOException     if the directory cannot be created or read
     */
    public static IngestLog open(final Path dir, final int partitions) {
        QueueFiles.checkPartitions(partitions);
        final Path meta = dir.resolve(META_FILE);
        try {
            Files.createDirectories(dir);
            if (!Files.exists(meta)) {
                createMeta(dir, partitions);
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot open ingest log in " + dir, e);
        }
        final int existing = readPartitionCount(dir);
        if (existing != partitions) {
            throw new IllegalArgumentException("ingest log " + dir + " has " + existing
                    + " partitions, asked for " + partitions + ": use " + existing + " or a new directory");
        }
        return new IngestLog(dir, partitions);
    }

    private static void createMeta(final Path dir, final int partitions) throws IOException {
        final Properties properties = new Properties();
        properties.setProperty("partitions", Integer.toString(partitions));
        properties.setProperty("record-length", Integer.toString(EventRecord.LENGTH));
        properties.setProperty("layout-version", Byte.toString(EventRecord.VERSION));
        QueueFiles.createAtomically(dir, META_FILE, properties, "StreamGrid ingest log: one Chronicle Queue per partition");
    }

    /** Opens an existing log with the partition count it was created with. */
    public static IngestLog openExisting(final Path dir) {
        return open(dir, readPartitionCount(dir));
    }

    /** Reads the metadata and refuses a layout this build cannot read; returns the partition count. */
    private static int readPartitionCount(final Path dir) {
        final Properties properties = QueueFiles.read(dir, META_FILE, "ingest log");
        final String version = properties.getProperty("layout-version");
        if (!Byte.toString(EventRecord.VERSION).equals(version)) {
            throw new IllegalArgumentException("ingest log " + dir + " has record layout version " + version
                    + ", this build reads layout version " + EventRecord.VERSION
                    + ": read it with the build that wrote it, or use a new directory");
        }
        final String length = properties.getProperty("record-length");
        if (!Integer.toString(EventRecord.LENGTH).equals(length)) {
            throw new IllegalArgumentException("ingest log " + dir + " has record length " + length
                    + ", this build reads " + EventRecord.LENGTH);
        }
        final String partitions = properties.getProperty("partitions");
        try {
            return Integer.parseInt(partitions);
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException("ingest log " + dir + " has no valid partition count in " + META_FILE
                    + " (found " + partitions + ")", e);
        }
    }

    public Path directory() {
        return dir;
    }

    public int partitions() {
        return queues.count();
    }

    /**
     * The partition of {@code key}: a mixing hash of the key modulo the partition count. Part of
     * the log format — it must never change for an existing log.
     */
    public int partitionOf(final long key) {
        return partitionOf(key, queues.count());
    }

    public static int partitionOf(final long key, final int partitions) {
        return (int) Math.floorMod(mix(key), (long) partitions);
    }

    /** A 64-bit finalising mix (MurmurHash3's fmix64): nearby inputs give unrelated outputs. */
    static long mix(final long value) {
        long h = value;
        h ^= h >>> 33;
        h *= 0xff51afd7ed558ccdL;
        h ^= h >>> 33;
        h *= 0xc4ceb9fe1a85ec53L;
        h ^= h >>> 33;
        return h;
    }

    /** Appends {@code record} to its key's partition; returns its index in that partition. */
    public long append(final EventRecord record) {
        return append(partitionOf(record.key()), record.buffer(), record.offset(), EventRecord.LENGTH);
    }

    /**
     * Appends raw bytes to {@code partition}; returns the index. Readers check records, so bytes
     * that are not a valid record are reported as rejected by the job, never silently skipped.
     */
    public long append(final int partition, final DirectBuffer buffer, final int offset, final int length) {
        return queues.append(partition, buffer, offset, length);
    }

    /** Appends an END_OF_STREAM record to every partition: replays of a finite log close all windows. */
    public void appendEndOfStream(final long sequence) {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[EventRecord.LENGTH]);
        final EventRecord record = new EventRecord().wrapForWrite(buffer, 0).endOfStream(sequence);
        for (int p = 0; p < queues.count(); p++) {
            append(p, record.buffer(), 0, EventRecord.LENGTH);
        }
    }

    /**
     * Appends a HEARTBEAT record to {@code partition}: the partition was idle and its event-time
     * clock stands at {@code eventTime}. Being in the log, the watermark move it causes happens at the
     * same place in every replay. Any thread may call this (a fresh appender each time; heartbeats
     * are rare).
     */
    public long appendHeartbeat(final int partition, final long eventTime) {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[EventRecord.LENGTH]);
        new EventRecord().wrapForWrite(buffer, 0).heartbeat(eventTime);
        return queues.appendFromAnyThread(partition, buffer, 0, EventRecord.LENGTH);
    }

    /** A reader of {@code partition} positioned after {@code lastReadIndex} ({@link #START}: at the beginning). */
    public PartitionReader reader(final int partition, final long lastReadIndex) {
        return new PartitionReader(partition, queues.tailer(partition), lastReadIndex, READ_CAPACITY);
    }

    @Override
    public void close() {
        queues.close();
    }

    /**
     * Reads one partition in append order into a reused buffer: no allocation per record. Not
     * thread-safe.
     */
    public static final class PartitionReader implements AutoCloseable {
        private final int partition;
        private final ExcerptTailer tailer;
        private final UnsafeBuffer buffer;
        private final int maxCapacity;
        private long lastIndex;

        /** Records longer than {@code capacity} are read with their first {@code capacity} bytes only. */
        PartitionReader(final int partition, final ExcerptTailer tailer, final long lastReadIndex, final int capacity) {
            this(partition, tailer, lastReadIndex, capacity, capacity);
        }

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
                    throw new IllegalStateException("ingest log partition " + partition + " has no record at index "
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
        public int next() {
            try (DocumentContext dc = tailer.readingDocument()) {
                if (!dc.isPresent()) {
                    return -1;
                }
                final Bytes<?> bytes = dc.wire().bytes();
                final int length = (int) bytes.readRemaining();
                if (length > buffer.capacity() && buffer.capacity() < maxCapacity) {
                    buffer.wrap(new byte[Math.min(maxCapacity, Integer.highestOneBit(length - 1) << 1)]);
                }
                final byte[] array = buffer.byteArray();
                final int n = Math.min(length, array.length);
                bytes.read(array, 0, n);
                lastIndex = dc.index();
                return length;
            }
        }

        public DirectBuffer buffer() {
            return buffer;
        }

        /** Index of the record last returned by {@link #next()}, or the resume index. */
        public long lastIndex() {
            return lastIndex;
        }

        public int partition() {
            return partition;
        }

        @Override
        public void close() {
            tailer.close();
        }
    }
}
