package io.streamgrid.perf.bench.nexmark;

import com.hazelcast.jet.Traversers;
import com.hazelcast.jet.aggregate.AggregateOperation;
import com.hazelcast.jet.aggregate.AggregateOperations;
import com.hazelcast.jet.datamodel.KeyedWindowResult;
import com.hazelcast.jet.pipeline.Pipeline;
import com.hazelcast.jet.pipeline.WindowDefinition;
import com.hazelcast.jet.pipeline.Sink;
import com.hazelcast.jet.pipeline.SinkBuilder;
import com.hazelcast.jet.pipeline.StreamStage;
import io.streamgrid.nexmark.Bid;
import io.streamgrid.nexmark.NexmarkQuery;
import io.streamgrid.perf.bench.SchemaLogSource;

import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static io.streamgrid.perf.bench.nexmark.NexmarkSchemas.*;

/**
 * The NEXMark queries as a plain Hazelcast Jet user writes them (Pipeline API), reading the same
 * schema logs as StreamGrid through a distributed source whose read positions are in Jet's
 * snapshots; rows go to {@link ResultRows#PLAIN_JET}.
 */
final class JetQueries {
    private JetQueries() {
    }

    /** The pipeline of {@code query} over the logs under {@code ingest}, or empty when not built yet. */
    static Optional<Pipeline> pipeline(final NexmarkQuery query, final Path ingest, final int localParallelism) {
        final Pipeline pipeline = Pipeline.create();
        switch (query) {
            case Q0 -> bids(pipeline, ingest, localParallelism)
                    .map(b -> NexmarkQuery.bidRow(b.auction(), b.bidder(), b.price(), b.dateTime()))
                    .writeTo(rows());
            case Q1 -> bids(pipeline, ingest, localParallelism)
                    .map(b -> NexmarkQuery.bidRow(b.auction(), b.bidder(), NexmarkQuery.euroCents(b.price()), b.dateTime()))
                    .writeTo(rows());
            case Q2 -> bids(pipeline, ingest, localParallelism)
                    .filter(b -> b.auction() % NexmarkQuery.Q2_MODULUS == 0)
                    .map(b -> NexmarkQuery.selectionRow(b.auction(), b.price()))
                    .writeTo(rows());
            case Q5 -> hotItems(bids(pipeline, ingest, localParallelism)).writeTo(rows());
            case Q7 -> highestBids(bids(pipeline, ingest, localParallelism)).writeTo(rows());
            case Q11 -> bids(pipeline, ingest, localParallelism)
                    .groupingKey(Bid::bidder)
                    .window(WindowDefinition.session(NexmarkQuery.SESSION_GAP_MS))
                    .aggregate(AggregateOperations.counting())
                    .map(s -> NexmarkQuery.sessionRow(s.key(), s.result(), s.start(), s.end()))
                    .writeTo(rows());
            default -> {
                return Optional.empty();
            }
        }
        return Optional.of(pipeline);
    }

    /** Q5: bids per auction per sliding window, then per window the auctions of the highest count. */
    private static StreamStage<String> hotItems(final StreamStage<Bid> bids) {
        final StreamStage<KeyedWindowResult<Long, Long>> counts = bids.groupingKey(Bid::auction)
                .window(WindowDefinition.sliding(NexmarkQuery.WINDOW_MS, NexmarkQuery.SLIDE_MS))
                .aggregate(AggregateOperations.counting());
        // Each count is stamped with its window's end, a multiple of the slide: one tumbling window of the slide per end.
        return counts.window(WindowDefinition.tumbling(NexmarkQuery.SLIDE_MS))
                .aggregate(AggregateOperation.withCreate(Leaders::new)
                        .<KeyedWindowResult<Long, Long>>andAccumulate((leaders, count) -> leaders.offer(count.result(),
                                new long[]{count.end(), count.key(), count.result()}))
                        .andCombine(Leaders::combine)
                        .andExportFinish(Leaders::rows))
                .flatMap(result -> Traversers.traverseIterable(result.result())
                        .map(row -> NexmarkQuery.hotItemRow(row[0], row[1], row[2])));
    }

    /** Q7: per tumbling window, the bids of the highest price. */
    private static StreamStage<String> highestBids(final StreamStage<Bid> bids) {
        return bids.window(WindowDefinition.tumbling(NexmarkQuery.WINDOW_MS))
                .aggregate(AggregateOperation.withCreate(Leaders::new)
                        .<Bid>andAccumulate((leaders, bid) -> leaders.offer(bid.price(),
                                new long[]{bid.auction(), bid.bidder(), bid.price(), bid.dateTime()}))
                        .andCombine(Leaders::combine)
                        .andExportFinish(Leaders::rows))
                .flatMap(result -> Traversers.traverseIterable(result.result())
                        .map(row -> NexmarkQuery.highestBidRow(result.end(), row[0], row[1], row[2], row[3])));
    }

    /** The rows of the highest score so far, all of them when tied (an aggregation's accumulator, in Jet's snapshots). */
    static final class Leaders implements Serializable {
        private long best = Long.MIN_VALUE;
        private final ArrayList<long[]> rows = new ArrayList<>();

        void offer(final long score, final long[] row) {
            if (score > best) {
                best = score;
                rows.clear();
            }
            if (score == best) {
                rows.add(row);
            }
        }

        void combine(final Leaders other) {
            other.rows.forEach(row -> offer(other.best, row));
        }

        List<long[]> rows() {
            return new ArrayList<>(rows);
        }
    }

    /**
     * The bids with their event times; the partitions' end-of-stream records become one bid a day
     * after the last, which moves the watermark past every window and is dropped right after.
     */
    private static StreamStage<Bid> bids(final Pipeline pipeline, final Path ingest, final int localParallelism) {
        return pipeline.readFrom(SchemaLogSource.replayable(io.streamgrid.jobs.ingest.SchemaLog.directoryOf(ingest, BID.name()), BID,
                        localParallelism, r -> new Bid(r.keyLong(), r.get(BID_BIDDER), r.get(BID_PRICE), r.get(BID_CHANNEL), r.get(BID_URL),
                                r.get(BID_TIME), r.get(BID_EXTRA)), last -> new Bid(END_OF_BIDS, -1, 0, "", "", last + DAY_MS, "")))
                .withTimestamps(Bid::dateTime, 0)
                .filter(bid -> bid.auction() != END_OF_BIDS);
    }

    /** The auction of the bid that ends the stream: none. */
    private static final long END_OF_BIDS = -1;
    private static final long DAY_MS = 86_400_000;

    private static Sink<String> rows() {
        return SinkBuilder.sinkBuilder("rows", context -> ResultRows.PLAIN_JET).<String>receiveFn(ResultRows::add).build();
    }
}
