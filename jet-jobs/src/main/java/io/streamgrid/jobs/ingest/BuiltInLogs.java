package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.schema.SchemaRecord;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The schema logs of the built-in event types under one ingest directory, opened on first use:
 * each event goes to the log of its type's schema ({@link SchemaLog#directoryOf}). What the
 * generator and the JSON-lines loader write to; a job reads only its own type's log. One thread.
 */
public final class BuiltInLogs implements AutoCloseable {
    private final Path ingestDir;
    private final int partitions;
    private final Map<EventType, SchemaLog> logs = new EnumMap<>(EventType.class);

    /** @param partitions the partition count of logs created here; an existing log keeps its own */
    public BuiltInLogs(final Path ingestDir, final int partitions) {
        QueueFiles.checkPartitions(partitions);
        this.ingestDir = ingestDir;
        this.partitions = partitions;
    }

    /** The log of {@code type}, opened (and created if new) on first use. */
    public SchemaLog log(final EventType type) {
        return logs.computeIfAbsent(type, t -> {
            final Path dir = SchemaLog.directoryOf(ingestDir, t.schema().name());
            return SchemaLog.exists(dir) ? SchemaLog.openExisting(dir, t.schema()) : SchemaLog.open(dir, t.schema(), partitions);
        });
    }

    /** Appends {@code record}, an event of a built-in type, to its type's log; returns its index there. */
    public long append(final SchemaRecord record) {
        return logOf(record).append(record);
    }

    /** The log of {@code record}'s built-in type. */
    public SchemaLog logOf(final SchemaRecord record) {
        final EventType type = EventType.ofSchema(record.layout().schema().name());
        if (type == null) {
            throw new IllegalArgumentException("schema " + record.layout().schema().name() + " is not a built-in type");
        }
        return log(type);
    }

    /** The log of every built-in type, created where missing (a load names every log it may write before its first append). */
    public List<SchemaLog> all() {
        final List<SchemaLog> all = new ArrayList<>();
        for (final EventType type : EventType.values()) {
            all.add(log(type));
        }
        return all;
    }

    /** Appends the end of the stream to every partition of every built-in type's log that exists; returns those types. */
    public List<EventType> appendEndOfStream() {
        final List<EventType> ended = new ArrayList<>();
        for (final EventType type : EventType.values()) {
            if (logs.containsKey(type) || SchemaLog.exists(SchemaLog.directoryOf(ingestDir, type.schema().name()))) {
                log(type).appendEndOfStream();
                ended.add(type);
            }
        }
        return ended;
    }

    public Path ingestDir() {
        return ingestDir;
    }

    @Override
    public void close() {
        logs.values().forEach(SchemaLog::close);
        logs.clear();
    }
}
