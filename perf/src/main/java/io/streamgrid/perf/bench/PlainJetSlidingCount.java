package io.streamgrid.perf.bench;

import com.hazelcast.jet.aggregate.AggregateOperations;
import com.hazelcast.jet.datamodel.KeyedWindowResult;
import com.hazelcast.jet.pipeline.Pipeline;
import com.hazelcast.jet.pipeline.Sink;
import com.hazelcast.jet.pipeline.SinkBuilder;
import com.hazelcast.jet.pipeline.WindowDefinition;
import io.streamgrid.jobs.event.EventType;

import java.io.Serializable;
import java.nio.file.Path;

/**
 * The reference: what a Jet user would write for the same count, reading the same schema log —
 * a distributed source ({@link SchemaLogSource#replayable}: each processor reads the partitions
 * {@code p % total == index}, its read positions in Jet snapshots), {@code withTimestamps}, {@code groupingKey},
 * {@code window(sliding(size, slide))}, {@code aggregate(counting())}, and a sink that tallies.
 */
final class PlainJetSlidingCount {
    private PlainJetSlidingCount() {
    }

    /** One request as the pipeline carries it. */
    record Request(long key, long timestamp) implements Serializable {
    }

    static Pipeline pipeline(final Path logDir, final long sizeMs, final long slideMs, final long sentinelKey,
                             final int localParallelism) {
        final Pipeline pipeline = Pipeline.create();
        pipeline.readFrom(SchemaLogSource.replayable(logDir, EventType.REQUEST.schema(), localParallelism,
                        event -> new Request(event.keyLong(), event.eventTime())))
                .withTimestamps(Request::timestamp, 0)
                .groupingKey(Request::key)
                .window(WindowDefinition.sliding(sizeMs, slideMs))
                .aggregate(AggregateOperations.counting())
                .writeTo(tally(sentinelKey));
        return pipeline;
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
}
