package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.schema.SchemaRecord;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * The schema logs of the built-in event types, opened on first use: each event goes to the log of
 * its type's schema — under one ingest directory ({@link SchemaLog#directoryOf}) or as Kafka topics.
 * What the generator and the JSON-lines loader write to; a job reads only its own type's log. One thread.
 */
public final class BuiltInLogs implements AutoCloseable {
    /** The ingest directory of Chronicle logs; null for Kafka logs. */
    private final Path ingestDir;
    private final LogSource source;
    private final int partitions;
    private final Map<EventType, EventLog> logs = new EnumMap<>(EventType.class);

    /** Chronicle logs under {@code ingestDir}. @param partitions the partition count of logs created here; an existing log keeps its own */
    public BuiltInLogs(final Path ingestDir, final int partitions) {
        this(ingestDir, ChronicleLogs.under(ingestDir, EventType.REQUEST.schema().name()), partitions);
    }

    /** Kafka topics of {@code kafka}. @param partitions the partition count of topics created here; an existing topic keeps its own */
    public BuiltInLogs(final KafkaLogs kafka, final int partitions) {
        this(null, kafka, partitions);
    }

    private BuiltInLogs(final Path ingestDir, final LogSource source, final int partitions) {
        QueueFiles.checkPartitions(partitions);
        this.ingestDir = ingestDir;
        this.source = source;
        this.partitions = partitions;
    }

    /** The log of {@code type}, opened (and created if new) on first use. */
    public EventLog log(final EventType type) {
        return logs.computeIfAbsent(type, t -> source.openOrCreate(t.schema(), t.schema().name(), partitions));
    }

    /** Appends {@code record}, an event of a built-in type, to its type's log; returns its index there. */
    public long append(final SchemaRecord record) {
        return logOf(record).append(record);
    }

    /** The log of {@code record}'s built-in type. */
    public EventLog logOf(final SchemaRecord record) {
        final EventType type = EventType.ofSchema(record.layout().schema().name());
        if (type == null) {
            throw new IllegalArgumentException("schema " + record.layout().schema().name() + " is not a built-in type");
        }
        return log(type);
    }

    /** The log of every built-in type, created where missing (a load names every log it may write before its first append). */
    public List<EventLog> all() {
        final List<EventLog> all = new ArrayList<>();
        for (final EventType type : EventType.values()) {
            all.add(log(type));
        }
        return all;
    }

    /**
     * Appends the end of the stream to every partition of every built-in type's log that exists
     * (a Chronicle queue or a Kafka topic; none is created), flushed; returns those types.
     */
    public List<EventType> appendEndOfStream() {
        final List<EventType> ended = new ArrayList<>();
        for (final EventType type : EventType.values()) {
            if (logs.containsKey(type) || source.exists(type.schema().name())) {
                log(type).appendEndOfStream();
                ended.add(type);
            }
        }
        return ended;
    }

    /** The ingest directory of Chronicle logs; null for Kafka logs. */
    public Path ingestDir() {
        return ingestDir;
    }

    /** Where the logs are, for messages. */
    public String describe() {
        return source.describe();
    }

    @Override
    public void close() {
        logs.values().forEach(EventLog::close);
        logs.clear();
    }
}
