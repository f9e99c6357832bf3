package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.KeyPartitions;
import io.streamgrid.jobs.schema.PublishedSequence;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.IncompatibleSchemaException;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.DirectBuffer;
import org.agrona.concurrent.UnsafeBuffer;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * The durable log of one {@link EventSchema}: one Chronicle Queue per partition, holding records in
 * the schema's binary layout ({@link SchemaRecord}). All events of a key are in one partition
 * ({@link #partitionOf(SchemaRecord)}), in append order, so keyed results replay exactly.
 *
 * <p>{@value #META_FILE} records the partition count and the newest schema version written to the
 * log. Opening checks the caller's schema against it: the same schema, an older version the stored
 * one is a successor of (its reader ignores the later fields), or a newer compatible version (which
 * then becomes the log's; see {@link EventSchema#checkSuccessorOf}). Anything else is refused with
 * an {@link IncompatibleSchemaException} naming the field, before a byte is read or written: a reader
 * never misreads a record.
 *
 * <p>Besides events, a partition holds control records: heartbeats of idle partitions and the end
 * of the stream ({@link SchemaLayout#KIND_HEARTBEAT}, {@link SchemaLayout#KIND_END_OF_STREAM}).
 *
 * <p>Appending is for one thread per instance; several processes may append to the same log.
 */
public final class SchemaLog implements EventLog {
    public static final String META_FILE = "schema-log.properties";
    /** Names the one job that emits events into the log, when one does. */
    public static final String EMITTER_FILE = "emitter.properties";
    /** The version of the record header and control records ({@link SchemaLayout}). */
    static final int LAYOUT_VERSION = 1;
    /** Readers' buffers grow up to this; a schema's records are far smaller (strings are at most 4 KiB each). */
    private static final int MAX_RECORD = 1 << 20;
    private static final ByteOrder ORDER = ByteOrder.LITTLE_ENDIAN;

    private final Path dir;
    private final EventSchema schema;
    private final SchemaLayout layout;
    private final PartitionQueues queues;
    private final UnsafeBuffer control = new UnsafeBuffer(new byte[SchemaLayout.CONTROL_LENGTH]);

    private SchemaLog(final Path dir, final EventSchema schema, final int partitions) {
        this.dir = dir;
        this.schema = schema;
        this.layout = schema.layout();
        this.queues = new PartitionQueues(dir, partitions);
    }

    /**
     * Opens the log of {@code schema} in {@code dir}, creating it with {@code partitions} partitions
     * if it does not exist.
     *
     * @throws IncompatibleSchemaException if the log holds another schema or an incompatible version
     * @throws IllegalArgumentException    if it has another partition count
     * @throws UncheckedIOException        if the directory cannot be created or read
     */
    public static SchemaLog open(final Path dir, final EventSchema schema, final int partitions) {
        QueueFiles.checkPartitions(partitions);
        try {
            Files.createDirectories(dir);
            if (!Files.exists(dir.resolve(META_FILE))) {
                QueueFiles.createAtomically(dir, META_FILE, meta(schema, partitions), comment(schema));
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot open the log of schema " + schema.name() + " in " + dir, e);
        }
        final Properties stored = readMeta(dir);
        final int existing = partitionsOf(stored, dir);
        if (existing != partitions) {
            throw new IllegalArgumentException("log of schema " + schema.name() + " in " + dir + " has " + existing
                    + " partitions, asked for " + partitions + ": use " + existing + " or a new directory");
        }
        checkAndUpgrade(dir, schema, stored);
        return new SchemaLog(dir, schema, partitions);
    }

    /** Opens an existing log with the partition count it was created with; checks {@code schema} as {@link #open} does. */
    public static SchemaLog openExisting(final Path dir, final EventSchema schema) {
        return open(dir, schema, partitionsOf(readMeta(dir), dir));
    }

    /** The newest schema version written to the log in {@code dir}. */
    public static EventSchema storedSchema(final Path dir) {
        return SchemaProperties.read(readMeta(dir), dir.resolve(META_FILE).toString());
    }

    /** Where the log of schema {@code schemaName} lives under an ingest directory: {@code <ingestDir>/schemas/<name>}. */
    public static Path directoryOf(final Path ingestDir, final String schemaName) {
        return ingestDir.resolve("schemas").resolve(schemaName);
    }

    /** Whether {@code dir} holds a schema log. */
    public static boolean exists(final Path dir) {
        return Files.exists(dir.resolve(META_FILE));
    }

    private static Properties meta(final EventSchema schema, final int partitions) {
        final Properties properties = new Properties();
        properties.setProperty("partitions", Integer.toString(partitions));
        properties.setProperty("layout-version", Integer.toString(LAYOUT_VERSION));
        SchemaProperties.write(schema, properties);
        return properties;
    }

    private static String comment(final EventSchema schema) {
        return "StreamGrid log of schema " + schema.name() + ": one Chronicle Queue per partition";
    }

    private static Properties readMeta(final Path dir) {
        final Properties properties = QueueFiles.read(dir, META_FILE, "schema log");
        final String version = properties.getProperty("layout-version");
        if (!Integer.toString(LAYOUT_VERSION).equals(version)) {
            throw new IllegalArgumentException("schema log " + dir + " has record layout version " + version
                    + ", this build reads layout version " + LAYOUT_VERSION + ": read it with the build that wrote it");
        }
        return properties;
    }

    private static int partitionsOf(final Properties properties, final Path dir) {
        final String partitions = properties.getProperty("partitions");
        try {
            return Integer.parseInt(partitions);
        } catch (final NumberFormatException e) {
            throw new IllegalArgumentException("schema log " + dir + " has no valid partition count in " + META_FILE
                    + " (found " + partitions + ")", e);
        }
    }

    /**
     * Checks, from the metadata alone (no queue is opened, nothing is written), that a reader or
     * writer with {@code schema} may use the log in {@code dir}, as {@link #open} would.
     *
     * @throws IncompatibleSchemaException naming the field, as {@link #open} does
     */
    public static void checkCompatible(final Path dir, final EventSchema schema) {
        checkAgainst(storedSchema(dir), schema, dir.toString());
    }

    /** Returns whether {@code schema} is a newer version than {@code stored} (so it becomes the log's). */
    static boolean checkAgainst(final EventSchema stored, final EventSchema schema, final String where) {
        if (!stored.name().equals(schema.name())) {
            throw new IncompatibleSchemaException("the log in " + where + " holds schema " + stored.name() + ", not " + schema.name());
        }
        if (schema.equals(stored)) {
            return false;
        }
        if (schema.version() < stored.version()) {
            stored.checkSuccessorOf(schema); // an older reader or writer: fine if the log's version only appended fields
            return false;
        }
        schema.checkSuccessorOf(stored);
        return true;
    }

    private static void checkAndUpgrade(final Path dir, final EventSchema schema, final Properties meta) {
        if (!checkAgainst(SchemaProperties.read(meta, dir.resolve(META_FILE).toString()), schema, dir.toString())) {
            return;
        }
        final Properties upgraded = meta(schema, partitionsOf(meta, dir));
        try {
            QueueFiles.replaceAtomically(dir, META_FILE, upgraded, comment(schema));
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot record schema " + schema.name() + " version " + schema.version() + " in " + dir, e);
        }
    }

    public Path directory() {
        return dir;
    }

    /** Its directory, absolute and normalized. */
    @Override
    public String name() {
        return LogPositions.logKey(dir);
    }

    /** The schema this instance reads and writes with. */
    @Override
    public EventSchema schema() {
        return schema;
    }

    @Override
    public int partitions() {
        return queues.count();
    }

    /**
     * The partition of {@code record}'s key: a mixing hash of a long key, or of a string key's
     * UTF-8 bytes, modulo the partition count. Part of the log format — it never changes.
     */
    public int partitionOf(final SchemaRecord record) {
        return KeyPartitions.partitionOf(record, queues.count());
    }

    /** The partition of a long key. */
    public int partitionOf(final long key) {
        return KeyPartitions.partitionOf(key, queues.count());
    }

    /** Appends {@code record} (of this log's schema, any version it accepts) to its key's partition; returns its index. */
    @Override
    public long append(final SchemaRecord record) {
        return append(partitionOf(record), record.buffer(), record.offset(), record.length());
    }

    /**
     * Appends raw bytes to {@code partition}; returns the index. Readers check records, so bytes
     * that are not a valid record are reported as rejected by the job, never silently skipped.
     */
    public long append(final int partition, final DirectBuffer buffer, final int offset, final int length) {
        return queues.append(partition, buffer, offset, length);
    }

    /**
     * Records that job {@code jobName} emits events into this log, unless it is recorded already.
     * One job per log: readers tell repeated emitted events apart by their writer's partition and
     * count (see {@link SchemaLayout#KIND_EMITTED}), which two jobs would share.
     *
     * @throws IllegalStateException when another job emits into this log
     */
    @Override
    public void claimEmitter(final String jobName) {
        final Properties claim = new Properties();
        claim.setProperty("job", jobName);
        try {
            if (QueueFiles.createAtomically(dir, EMITTER_FILE, claim, "the job that emits events into this log")) {
                return;
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot record job " + jobName + " as the emitter of log " + dir, e);
        }
        final String owner = QueueFiles.read(dir, EMITTER_FILE, "emitter file").getProperty("job");
        if (!jobName.equals(owner)) {
            throw new IllegalStateException("job " + jobName + " cannot emit into log " + dir + ": job " + owner
                    + " emits into it (one emitting job per log; give the schema another name)");
        }
    }

    @Override
    public boolean hasEmitter() {
        return Files.exists(dir.resolve(EMITTER_FILE));
    }

    /** A claim file per slot, {@code publisher-<slot>.properties}: created atomically, so two processes never share a slot. */
    @Override
    public PublisherSlot publisherSlot(final String publisherId) {
        final java.util.Map<String, Integer> claimed = new java.util.HashMap<>();
        try (java.util.stream.Stream<Path> files = Files.list(dir)) {
            for (final Path file : (Iterable<Path>) files::iterator) {
                final String name = file.getFileName().toString();
                if (name.startsWith("publisher-") && name.endsWith(".properties")) {
                    final int slot = Integer.parseInt(name.substring("publisher-".length(), name.length() - ".properties".length()));
                    claimed.put(QueueFiles.read(dir, name, "publisher claim").getProperty("publisher"), slot);
                }
            }
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot list the publisher claims of log " + dir, e);
        }
        final Integer known = claimed.get(publisherId);
        if (known != null) {
            return new PublisherSlot(known, false);
        }
        final Properties claim = new Properties();
        claim.setProperty("publisher", publisherId);
        final int start = Math.floorMod(publisherId.hashCode(), PublishedSequence.SLOTS);
        for (int i = 0; i < PublishedSequence.SLOTS; i++) {
            final int slot = PublishedSequence.FIRST_SLOT + (start + i) % PublishedSequence.SLOTS;
            try {
                if (QueueFiles.createAtomically(dir, "publisher-" + slot + ".properties", claim, "the publisher of slot " + slot)) {
                    return new PublisherSlot(slot, true);
                }
                if (publisherId.equals(QueueFiles.read(dir, "publisher-" + slot + ".properties", "publisher claim").getProperty("publisher"))) {
                    return new PublisherSlot(slot, false); // claimed by another process for the same publisher meanwhile
                }
            } catch (final IOException e) {
                throw new UncheckedIOException("cannot record publisher " + publisherId + " in log " + dir, e);
            }
        }
        throw new IllegalStateException("log " + dir + " has no free publisher slot: " + PublishedSequence.SLOTS + " publishers have used it");
    }

    /** Appends an end-of-stream record to every partition: a job reading it emits everything still due. */
    @Override
    public void appendEndOfStream() {
        fillControl(control, SchemaLayout.KIND_END_OF_STREAM, Long.MAX_VALUE);
        for (int p = 0; p < queues.count(); p++) {
            append(p, control, 0, SchemaLayout.CONTROL_LENGTH);
        }
    }

    /**
     * Appends a heartbeat to {@code partition}: it was idle and its event-time clock stands at
     * {@code eventTime}. Any thread may call this (a fresh appender each time; heartbeats are rare).
     */
    @Override
    public long appendHeartbeat(final int partition, final long eventTime) {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[SchemaLayout.CONTROL_LENGTH]);
        fillControl(buffer, SchemaLayout.KIND_HEARTBEAT, eventTime);
        return queues.appendFromAnyThread(partition, buffer, 0, SchemaLayout.CONTROL_LENGTH);
    }

    @Override
    public void appendWriterClock(final int writer, final int writers, final long time) {
        fillWriterClock(control, writer, writers, time);
        for (int p = 0; p < queues.count(); p++) {
            append(p, control, 0, SchemaLayout.CONTROL_LENGTH);
        }
    }

    static void fillWriterClock(final UnsafeBuffer buffer, final int writer, final int writers, final long time) {
        fillControl(buffer, SchemaLayout.KIND_WRITER_CLOCK, time);
        buffer.putInt(SchemaLayout.CONTROL_WRITER, writer, ORDER);
        buffer.putInt(SchemaLayout.CONTROL_WRITERS, writers, ORDER);
    }

    /** The writer a {@link SchemaLayout#KIND_WRITER_CLOCK} record names. */
    public static int controlWriter(final DirectBuffer buffer, final int offset) {
        return buffer.getInt(offset + SchemaLayout.CONTROL_WRITER, ORDER);
    }

    /** How many writers a {@link SchemaLayout#KIND_WRITER_CLOCK} record says its log has. */
    public static int controlWriters(final DirectBuffer buffer, final int offset) {
        return buffer.getInt(offset + SchemaLayout.CONTROL_WRITERS, ORDER);
    }

    static void fillControl(final UnsafeBuffer buffer, final byte kind, final long time) {
        buffer.setMemory(0, SchemaLayout.CONTROL_LENGTH, (byte) 0);
        buffer.putByte(0, kind);
        buffer.putByte(1, SchemaLayout.MARKER);
        buffer.putLong(SchemaLayout.HEADER, time, ORDER);
    }

    /** The time a control record carries. */
    public static long controlTime(final DirectBuffer buffer, final int offset) {
        return buffer.getLong(offset + SchemaLayout.HEADER, ORDER);
    }

    /**
     * Records of {@code partition} after {@code lastReadIndex} ({@link PartitionReader#START}: all of
     * them), control records included: a reader's lag in records. Counted from the queue's index,
     * not by reading records — cheap, but not for every record.
     */
    @Override
    public long recordsAfter(final int partition, final long lastReadIndex) {
        return queues.recordsAfter(partition, lastReadIndex);
    }

    /** Records in the log, every partition, control records included. */
    public long records() {
        long records = 0;
        for (int p = 0; p < partitions(); p++) {
            records += recordsAfter(p, PartitionReader.START);
        }
        return records;
    }

    /** The index of {@code partition}'s last record, control records included; {@link PartitionReader#START} when empty. */
    public long lastIndex(final int partition) {
        return queues.lastIndex(partition);
    }

    @Override
    public long tailIndex(final int partition) {
        return lastIndex(partition);
    }

    @Override
    public long lastIndexNow(final int partition) {
        return lastIndex(partition);
    }

    /** Events ({@link SchemaLayout#KIND_EVENT} records, not control or emitted ones) of {@code partition} after {@code index}, read one by one. */
    public long eventsAfter(final int partition, final long index) {
        long events = 0;
        try (PartitionReader reader = reader(partition, index)) {
            int length;
            while ((length = reader.next()) >= 0) {
                if (length > 0 && reader.buffer().getByte(0) == SchemaLayout.KIND_EVENT) {
                    events++;
                }
            }
        }
        return events;
    }

    /** A reader of {@code partition} positioned after {@code lastReadIndex} ({@link PartitionReader#START}: at the beginning). */
    @Override
    public PartitionReader reader(final int partition, final long lastReadIndex) {
        return new PartitionReader(partition, queues.tailer(partition), lastReadIndex,
                Math.max(256, layout.length()), MAX_RECORD);
    }

    @Override
    public void close() {
        queues.close();
    }
}
