package io.streamgrid.perf.bench.nexmark;

import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.LongKeyContext;
import io.streamgrid.jobs.keyed.LongKeyedFunction;
import io.streamgrid.jobs.keyed.StateCodec;
import io.streamgrid.jobs.pipeline.JobDefinition;
import io.streamgrid.jobs.pipeline.ResultHandler;
import io.streamgrid.jobs.pipeline.StateWriter;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.window.Aggregations;
import io.streamgrid.jobs.window.Counter;
import io.streamgrid.jobs.window.WindowAggregation;
import io.streamgrid.nexmark.NexmarkQuery;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.io.Serializable;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static io.streamgrid.perf.bench.nexmark.NexmarkSchemas.*;

/**
 * NEXMark Q5 (hot items) and Q7 (highest bid) on StreamGrid: a window's leaders — the rows of the
 * highest score, every one when tied — over all auctions, in two stages as a StreamGrid user writes
 * a global aggregate. A windowed job aggregates per auction; its result handler, one per log
 * partition, keeps per window the partition's leaders and emits them when the watermark has
 * passed the window, into a log keyed by the window's end. A keyed job per window end takes the
 * leaders of every partition and gives the window's rows when its timer at the window's end fires —
 * when every writer's clock is there, so nothing of the window can still come.
 */
final class WindowLeaders {
    private WindowLeaders() {
    }

    /** Q5: bids per auction per sliding window, then per window the auctions of the most bids. */
    static List<JobDefinition> hotItems() {
        final WindowedJob<Counter> counts = WindowedJob.builder("nexmark-q5-counts", BID)
                .sliding(NexmarkQuery.WINDOW_MS, NexmarkQuery.SLIDE_MS)
                .time(StreamGridQueries.IN_ORDER)
                .emits(HOT_AUCTION)
                .aggregate(Aggregations.count())
                .handledBy(job -> new PartitionLeaders<Counter>() {
                    @Override
                    void offer(final long auction, final Counter count, final Leaders leaders) {
                        leaders.offer(count.value(), new long[] {auction, count.value()});
                    }

                    @Override
                    void emit(final long end, final long[] row, final StateWriter out) {
                        final SchemaRecord hot = out.newEvent(HOT_AUCTION);
                        hot.set(HOT_END, end).set(HOT_TIME, end).set(HOT_AUCTION_ID, row[0]).set(HOT_BIDS, row[1]);
                        out.emit(hot);
                    }
                });
        return List.of(counts, windowRows("nexmark-q5-hottest", HOT_AUCTION, new HottestRows()));
    }

    /** Q7: per tumbling window, the bids of the highest price. */
    static List<JobDefinition> highestBids() {
        final WindowedJob<Leaders> tops = WindowedJob.builder("nexmark-q7-tops", BID)
                .tumbling(NexmarkQuery.WINDOW_MS)
                .time(StreamGridQueries.IN_ORDER)
                .emits(TOP_BID)
                .aggregate(new HighestBids())
                .handledBy(job -> new PartitionLeaders<Leaders>() {
                    @Override
                    void offer(final long auction, final Leaders auctionLeaders, final Leaders leaders) {
                        leaders.combine(auctionLeaders);
                    }

                    @Override
                    void emit(final long end, final long[] row, final StateWriter out) {
                        final SchemaRecord top = out.newEvent(TOP_BID);
                        top.set(TOP_END, end).set(TOP_TIME, end).set(TOP_AUCTION, row[0]).set(TOP_BIDDER, row[1])
                                .set(TOP_PRICE, row[2]).set(TOP_BID_TIME, row[3]);
                        out.emit(top);
                    }
                });
        return List.of(tops, windowRows("nexmark-q7-highest", TOP_BID, new HighestRows()));
    }

    /** The second stage, reading the leaders of {@code schema}. */
    private static KeyedJob<Leaders> windowRows(final String name, final EventSchema schema, final WindowRows rows) {
        return KeyedJob.<Leaders>builder(name, schema)
                .longKeyed(rows)
                .state(StateCodec.derived(Leaders.class))
                .time(StreamGridQueries.IN_ORDER) // clocked by the first stage's partitions: no disorder to allow for
                .build();
    }

    /**
     * Per log partition: the leaders of each window whose results came, emitted as soon as the
     * watermark moved past it (the engine hands every window a watermark closes before telling the
     * handler the watermark) — so nothing is held between calls, and a snapshot holds nothing of it.
     */
    abstract static class PartitionLeaders<A> implements ResultHandler<A> {
        private final Map<Long, Leaders> byEnd = new TreeMap<>();

        /** Offers window result {@code value} of {@code auction} to the partition's {@code leaders} of its window. */
        abstract void offer(long auction, A value, Leaders leaders);

        /** Emits one leading row of the window ending at {@code end}. */
        abstract void emit(long end, long[] row, StateWriter out);

        @Override
        public void onWindow(final long auction, final long start, final long end, final A value, final int updateSequence,
                             final boolean afterWatermark, final StateWriter out) {
            offer(auction, value, byEnd.computeIfAbsent(end, e -> new Leaders()));
        }

        @Override
        public void onWatermark(final long watermark, final StateWriter out) {
            byEnd.forEach((end, leaders) -> leaders.rows().forEach(row -> emit(end, row, out)));
            byEnd.clear();
        }
    }

    /** The second stage, per window end: the leaders of every partition, the window's rows when its timer fires. */
    abstract static class WindowRows implements LongKeyedFunction<Leaders> {
        abstract long score(SchemaRecord leader);

        abstract long[] row(SchemaRecord leader);

        /** The result row of {@code row} in the window ending at {@code end}. */
        abstract long resultRow(long end, long[] row);

        @Override
        public void onEvent(final SchemaRecord leader, final LongKeyContext<Leaders> context) {
            Leaders leaders = context.state();
            if (leaders == null) {
                leaders = new Leaders();
                context.registerTimer(context.longKey()); // the window's end: every partition's leaders are in by then
            }
            leaders.offer(score(leader), row(leader));
            context.setState(leaders);
        }

        @Override
        public void onTimer(final long time, final LongKeyContext<Leaders> context) {
            for (final long[] row : context.state().rows()) {
                ResultRows.STREAMGRID.add(resultRow(context.longKey(), row), context.longKey());
            }
            context.clearState();
        }
    }

    static final class HottestRows extends WindowRows {
        @Override
        long score(final SchemaRecord hot) {
            return hot.get(HOT_BIDS);
        }

        @Override
        long[] row(final SchemaRecord hot) {
            return new long[] {hot.get(HOT_AUCTION_ID), hot.get(HOT_BIDS)};
        }

        @Override
        long resultRow(final long end, final long[] row) {
            return NexmarkQuery.hotItemRow(end, row[0], row[1]);
        }
    }

    static final class HighestRows extends WindowRows {
        @Override
        long score(final SchemaRecord top) {
            return top.get(TOP_PRICE);
        }

        @Override
        long[] row(final SchemaRecord top) {
            return new long[] {top.get(TOP_AUCTION), top.get(TOP_BIDDER), top.get(TOP_PRICE), top.get(TOP_BID_TIME)};
        }

        @Override
        long resultRow(final long end, final long[] row) {
            return NexmarkQuery.highestBidRow(end, row[0], row[1], row[2], row[3]);
        }
    }

    /** Per auction and window: its bids of the highest price (auction, bidder, price, time), in the window's snapshots. */
    static final class HighestBids implements WindowAggregation<Leaders>, Serializable {
        @Override
        public Leaders create() {
            return new Leaders();
        }

        @Override
        public void accumulate(final Leaders leaders, final SchemaRecord bid) {
            final long price = bid.get(BID_PRICE);
            if (price >= leaders.best()) {
                leaders.offer(price, new long[] {bid.keyLong(), bid.get(BID_BIDDER), price, bid.get(BID_TIME)});
            }
        }

        @Override
        public void combine(final Leaders target, final Leaders other) {
            target.combine(other);
        }

        @Override
        public void write(final Leaders leaders, final DataOutput out) throws IOException {
            final List<long[]> rows = leaders.rows();
            out.writeInt(rows.size());
            for (final long[] row : rows) {
                for (final long value : row) {
                    out.writeLong(value);
                }
            }
        }

        @Override
        public Leaders read(final DataInput in) throws IOException {
            final Leaders leaders = new Leaders();
            final int rows = in.readInt();
            for (int i = 0; i < rows; i++) {
                final long[] row = {in.readLong(), in.readLong(), in.readLong(), in.readLong()};
                leaders.offer(row[2], row);
            }
            return leaders;
        }
    }
}
