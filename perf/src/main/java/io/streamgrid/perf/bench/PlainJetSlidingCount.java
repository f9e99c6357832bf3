package io.streamgrid.perf.bench;

import com.hazelcast.jet.aggregate.AggregateOperations;
import com.hazelcast.jet.datamodel.KeyedWindowResult;
import com.hazelcast.jet.pipeline.Pipeline;
import com.hazelcast.jet.pipeline.Sink;
import com.hazelcast.jet.pipeline.SinkBuilder;
import com.hazelcast.jet.pipeline.SourceBuilder;
import com.hazelcast.jet.pipeline.StreamSource;
import com.hazelcast.jet.pipeline.WindowDefinition;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.PartitionReader;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.schema.SchemaRecord;

import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The reference: what a Jet user would write for the same count, reading the same ingest log —
 * a distributed source (each processor reads the partitions {@code p % total == index}, with its
 * read positions in Jet snapshots), {@code withTimestamps}, {@code groupingKey},
 * {@code window(sliding(size, slide))}, {@code aggregate(counting())}, and a sink that tallies.
 */
final class PlainJetSlidingCount {
    private PlainJetSlidingCount() {
    }

    /** One request as the pipeline carries it. */
    record Request(long key, long timestamp) implements Serializable {
    }

    static Pipeline pipeline(final Path ingestDir, final long sizeMs, final long slideMs, final long sentinelKey,
                             final int localParallelism) {
        final Pipeline pipeline = Pipeline.create();
        pipeline.readFrom(source(ingestDir.toAbsolutePath().toString(), localParallelism))
                .withTimestamps(Request::timestamp, 0)
                .groupingKey(Request::key)
                .window(WindowDefinition.sliding(sizeMs, slideMs))
                .aggregate(AggregateOperations.counting())
                .writeTo(tally(sentinelKey));
        return pipeline;
    }

    private static StreamSource<Request> source(final String dir, final int localParallelism) {
        return SourceBuilder.stream("ingest-log", context -> new Reader(dir, context.globalProcessorIndex(),
                        context.totalParallelism()))
                .<Request>fillBufferFn(Reader::fill)
                .createSnapshotFn(Reader::positions)
                .restoreSnapshotFn(Reader::restore)
                .destroyFn(Reader::close)
                .distributed(localParallelism)
                .build();
    }

    private static Sink<KeyedWindowResult<Long, Long>> tally(final long sentinelKey) {
        return SinkBuilder.sinkBuilder("tally", context -> ResultTally.PLAIN_JET)
                .<KeyedWindowResult<Long, Long>>receiveFn((tally, result) -> {
                    if (result.key() != sentinelKey) {
                        tally.onResult(result.end(), result.result());
                    }
                })
                .build();
    }

    /** Reads this processor's partitions round-robin, up to a batch per call. */
    private static final class Reader {
        private static final int BATCH = 1024;
        private final SchemaLog log;
        private final List<PartitionReader> readers = new ArrayList<>();
        private final SchemaRecord event = new SchemaRecord(EventType.REQUEST.schema().layout());

        Reader(final String dir, final int index, final int total) {
            log = SchemaLog.openExisting(Path.of(dir), EventType.REQUEST.schema());
            for (int p = 0; p < log.partitions(); p++) {
                if (p % total == index) {
                    readers.add(log.reader(p, PartitionReader.START));
                }
            }
        }

        void fill(final SourceBuilder.SourceBuffer<Request> buffer) {
            for (final PartitionReader reader : readers) {
                int length;
                for (int i = 0; i < BATCH && (length = reader.next()) > 0; i++) {
                    event.wrap(reader.buffer(), 0, length);
                    buffer.add(new Request(event.keyLong(), event.eventTime()));
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
