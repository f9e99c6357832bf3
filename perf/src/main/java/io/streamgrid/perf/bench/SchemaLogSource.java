package io.streamgrid.perf.bench;

import com.hazelcast.function.FunctionEx;
import com.hazelcast.jet.pipeline.SourceBuilder;
import com.hazelcast.jet.pipeline.StreamSource;
import io.streamgrid.jobs.ingest.PartitionReader;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The plain-Jet references' source: what a Jet user would write to read a schema log — a
 * distributed source (each processor reads the partitions {@code p % total == index}) turning each
 * event into an object with {@code toItem}. Control records are skipped.
 *
 * <p>Two shapes. {@link #of}: the event time as the item's native timestamp (so that each
 * processor's watermark follows its own partitions; a separate {@code withTimestamps} stage would mix
 * partitions and drop the slower one's events as late), no snapshots — for benchmarks without a
 * processing guarantee. {@link #replayable}: no timestamps (the pipeline adds them), the read
 * positions in Jet's snapshots — for benchmarks that run with one.
 */
public final class SchemaLogSource {
    private SchemaLogSource() {
    }

    public static <T> StreamSource<T> of(final Path dir, final EventSchema schema, final int localParallelism,
                                  final FunctionEx<SchemaRecord, T> toItem) {
        final String path = dir.toAbsolutePath().toString();
        return SourceBuilder.timestampedStream("schema-log", context -> new Reader<>(path, schema, context.globalProcessorIndex(),
                        context.totalParallelism(), toItem, null))
                .<T>fillBufferFn(Reader::fillTimestamped)
                .destroyFn(Reader::close)
                .distributed(localParallelism)
                .build();
    }

    public static <T> StreamSource<T> replayable(final Path dir, final EventSchema schema, final int localParallelism,
                                                 final FunctionEx<SchemaRecord, T> toItem) {
        return replayable(dir, schema, localParallelism, toItem, null);
    }

    /**
     * As {@link #replayable(Path, EventSchema, int, FunctionEx)}, adding {@code atEnd}'s item once
     * every partition of a processor has met its end-of-stream record, given the highest event time
     * the processor read: an item a day after it moves the watermark past every window, as a
     * bounded source's end does (the pipeline then drops it). Not further: Jet's sliding windows
     * step through every slide up to the watermark, so a jump of decades would take minutes.
     */
    public static <T> StreamSource<T> replayable(final Path dir, final EventSchema schema, final int localParallelism,
                                                 final FunctionEx<SchemaRecord, T> toItem, final FunctionEx<Long, T> atEnd) {
        final String path = dir.toAbsolutePath().toString();
        return SourceBuilder.stream("schema-log", context -> new Reader<>(path, schema, context.globalProcessorIndex(),
                        context.totalParallelism(), toItem, atEnd))
                .<T>fillBufferFn(Reader::fill)
                .createSnapshotFn(Reader::positions)
                .restoreSnapshotFn(Reader::restore)
                .destroyFn(Reader::close)
                .distributed(localParallelism)
                .build();
    }

    /** Reads this processor's partitions round-robin, up to a batch per partition per call. */
    private static final class Reader<T> {
        private static final int BATCH = 1024;
        private final SchemaLog log;
        private final List<PartitionReader> readers = new ArrayList<>();
        private final SchemaRecord record;
        private final FunctionEx<SchemaRecord, T> toItem;
        /** Null: end-of-stream records are skipped like the other control records. */
        private final FunctionEx<Long, T> atEnd;
        private long maxEventTime = Long.MIN_VALUE;
        /** How many of this processor's partitions have ended; the end item goes out once all have. */
        private int ended;
        private boolean endSent;

        Reader(final String dir, final EventSchema schema, final int index, final int total, final FunctionEx<SchemaRecord, T> toItem,
               final FunctionEx<Long, T> atEnd) {
            this.log = SchemaLog.openExisting(Path.of(dir), schema);
            this.record = new SchemaRecord(schema.layout());
            this.toItem = toItem;
            this.atEnd = atEnd;
            for (int p = 0; p < log.partitions(); p++) {
                if (p % total == index) {
                    readers.add(log.reader(p, PartitionReader.START));
                }
            }
        }

        void fillTimestamped(final SourceBuilder.TimestampedSourceBuffer<T> buffer) {
            read(event -> buffer.add(toItem.apply(event), event.eventTime()));
        }

        void fill(final SourceBuilder.SourceBuffer<T> buffer) {
            read(event -> buffer.add(toItem.apply(event)));
            if (atEnd != null && !endSent && ended == readers.size()) {
                buffer.add(atEnd.apply(maxEventTime));
                endSent = true;
            }
        }

        private void read(final Consumer<SchemaRecord> each) {
            for (final PartitionReader reader : readers) {
                int length;
                for (int i = 0; i < BATCH && (length = reader.next()) > 0; i++) {
                    final byte kind = reader.buffer().getByte(0);
                    if (kind == SchemaLayout.KIND_EVENT) {
                        each.accept(record.wrap(reader.buffer(), 0, length));
                        maxEventTime = Math.max(maxEventTime, record.eventTime());
                    } else if (kind == SchemaLayout.KIND_END_OF_STREAM && atEnd != null
                            && length == SchemaLayout.CONTROL_LENGTH && reader.buffer().getByte(1) == SchemaLayout.MARKER) {
                        ended++;
                    }
                }
            }
        }

        HashMap<Integer, Long> positions() {
            final HashMap<Integer, Long> positions = new HashMap<>();
            readers.forEach(r -> positions.put(r.partition(), r.lastIndex()));
            return positions;
        }

        void restore(final List<HashMap<Integer, Long>> saved) {
            final Map<Integer, Long> merged = new HashMap<>();
            saved.forEach(merged::putAll);
            for (int i = 0; i < readers.size(); i++) {
                final PartitionReader old = readers.get(i);
                final Long position = merged.get(old.partition());
                if (position != null) {
                    old.close();
                    readers.set(i, log.reader(old.partition(), position));
                }
            }
        }

        void close() {
            readers.forEach(PartitionReader::close);
            log.close();
        }
    }
}
