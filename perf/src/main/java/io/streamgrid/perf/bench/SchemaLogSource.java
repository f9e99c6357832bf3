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
import java.util.List;

/**
 * The plain-Jet reference's source: what a Jet user would write to read a schema log — a
 * distributed source (each processor reads the partitions {@code p % total == index}) turning each
 * event into an object with {@code toItem}, with the event time as its native timestamp (so that
 * each processor's watermark follows its own partitions; a separate {@code withTimestamps} stage
 * would mix partitions and drop the slower one's events as late). Control records are skipped. No
 * snapshots: the benchmarks that use it run without a processing guarantee.
 */
final class SchemaLogSource {
    private SchemaLogSource() {
    }

    static <T> StreamSource<T> of(final Path dir, final EventSchema schema, final int localParallelism,
                                  final FunctionEx<SchemaRecord, T> toItem) {
        final String path = dir.toAbsolutePath().toString();
        return SourceBuilder.timestampedStream("schema-log", context -> new Reader<>(path, schema, context.globalProcessorIndex(),
                        context.totalParallelism(), toItem))
                .<T>fillBufferFn(Reader::fill)
                .destroyFn(Reader::close)
                .distributed(localParallelism)
                .build();
    }

    private static final class Reader<T> {
        private static final int BATCH = 1024;
        private final SchemaLog log;
        private final List<PartitionReader> readers = new ArrayList<>();
        private final SchemaRecord record;
        private final FunctionEx<SchemaRecord, T> toItem;

        Reader(final String dir, final EventSchema schema, final int index, final int total, final FunctionEx<SchemaRecord, T> toItem) {
            this.log = SchemaLog.openExisting(Path.of(dir), schema);
            this.record = new SchemaRecord(schema.layout());
            this.toItem = toItem;
            for (int p = 0; p < log.partitions(); p++) {
                if (p % total == index) {
                    readers.add(log.reader(p, PartitionReader.START));
                }
            }
        }

        void fill(final SourceBuilder.TimestampedSourceBuffer<T> buffer) {
            for (final PartitionReader reader : readers) {
                int length;
                for (int i = 0; i < BATCH && (length = reader.next()) > 0; i++) {
                    if (reader.buffer().getByte(0) == SchemaLayout.KIND_EVENT) {
                        record.wrap(reader.buffer(), 0, length);
                        buffer.add(toItem.apply(record), record.eventTime());
                    }
                }
            }
        }

        void close() {
            readers.forEach(PartitionReader::close);
            log.close();
        }
    }
}
