package io.streamgrid.nexmark.flink;

import io.streamgrid.nexmark.Auction;
import io.streamgrid.nexmark.Bid;
import io.streamgrid.nexmark.NexmarkQuery;
import io.streamgrid.nexmark.Person;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.functions.co.KeyedCoProcessFunction;
import org.apache.flink.streaming.api.functions.windowing.ProcessAllWindowFunction;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.EventTimeSessionWindows;
import org.apache.flink.streaming.api.windowing.assigners.SlidingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The NEXMark queries in Flink's DataStream API, written as a Flink user would (keyed state,
 * windows, timers), each ending in canonical rows ({@link NexmarkQuery}) for the fingerprint sink.
 */
final class FlinkQueries {
    private FlinkQueries() {
    }

    /** Builds {@code query} on {@code env}: its rows. */
    static DataStream<Long> build(final NexmarkQuery query, final StreamExecutionEnvironment env, final int parallelism) {
        return switch (query) {
            case Q0 -> InMemoryStreams.bids(env, parallelism).map(b -> NexmarkQuery.bidRow(b.auction(), b.bidder(), b.price(), b.dateTime()));
            case Q1 -> InMemoryStreams.bids(env, parallelism)
                    .map(b -> NexmarkQuery.bidRow(b.auction(), b.bidder(), NexmarkQuery.euroCents(b.price()), b.dateTime()));
            case Q2 -> InMemoryStreams.bids(env, parallelism).filter(b -> b.auction() % NexmarkQuery.Q2_MODULUS == 0)
                    .map(b -> NexmarkQuery.selectionRow(b.auction(), b.price()));
            case Q3 -> localItems(env, parallelism);
            case Q4 -> closingPrices(env, parallelism);
            case Q5 -> hotItems(env, parallelism);
            case Q7 -> highestBids(env, parallelism);
            case Q8 -> newUsers(env, parallelism);
            case Q11 -> sessions(env, parallelism);
        };
    }

    // ---- Q3: an incremental join over all time ----

    private static DataStream<Long> localItems(final StreamExecutionEnvironment env, final int parallelism) {
        final DataStream<Person> sellers = InMemoryStreams.persons(env, parallelism).filter(p -> NexmarkQuery.Q3_STATES.contains(p.state()));
        final DataStream<Auction> items = InMemoryStreams.auctions(env, parallelism).filter(a -> a.category() == NexmarkQuery.Q3_CATEGORY);
        return sellers.connect(items).keyBy(Person::id, Auction::seller).process(new LocalItemJoin());
    }

    /** Keeps the seller and the auctions that came before her; pairs each new arrival with the other side. */
    static final class LocalItemJoin extends KeyedCoProcessFunction<Long, Person, Auction, Long> {
        private transient ValueState<Person> seller;
        private transient ListState<Auction> waiting;

        @Override
        public void open(final org.apache.flink.api.common.functions.OpenContext context) {
            seller = getRuntimeContext().getState(new ValueStateDescriptor<>("seller", TypeInformation.of(Person.class)));
            waiting = getRuntimeContext().getListState(new ListStateDescriptor<>("waiting", TypeInformation.of(Auction.class)));
        }

        @Override
        public void processElement1(final Person person, final Context context, final Collector<Long> out) throws Exception {
            seller.update(person);
            for (final Auction auction : waiting.get()) {
                out.collect(NexmarkQuery.localItemRow(person.name(), person.city(), person.state(), auction.id()));
            }
            waiting.clear();
        }

        @Override
        public void processElement2(final Auction auction, final Context context, final Collector<Long> out) throws Exception {
            final Person person = seller.value();
            if (person != null) {
                out.collect(NexmarkQuery.localItemRow(person.name(), person.city(), person.state(), auction.id()));
            } else {
                waiting.add(auction);
            }
        }
    }

    // ---- Q4: winning bids, then a running sum per category ----

    private static DataStream<Long> closingPrices(final StreamExecutionEnvironment env, final int parallelism) {
        final DataStream<Tuple2<Long, Long>> closed = InMemoryStreams.auctions(env, parallelism)
                .connect(InMemoryStreams.bids(env, parallelism))
                .keyBy(Auction::id, Bid::auction)
                .process(new WinningBid());
        return closed.keyBy(c -> c.f0).process(new CategoryTotals());
    }

    /** Per auction: the best bid at or above the reserve within its time; (category, price) when it expires. */
    static final class WinningBid extends KeyedCoProcessFunction<Long, Auction, Bid, Tuple2<Long, Long>> {
        private transient ValueState<Auction> auction;
        private transient ValueState<Long> best;
        private transient ListState<Bid> early;

        @Override
        public void open(final org.apache.flink.api.common.functions.OpenContext context) {
            auction = getRuntimeContext().getState(new ValueStateDescriptor<>("auction", TypeInformation.of(Auction.class)));
            best = getRuntimeContext().getState(new ValueStateDescriptor<>("best", Types.LONG));
            early = getRuntimeContext().getListState(new ListStateDescriptor<>("early", TypeInformation.of(Bid.class)));
        }

        @Override
        public void processElement1(final Auction a, final Context context, final Collector<Tuple2<Long, Long>> out) throws Exception {
            auction.update(a);
            for (final Bid bid : early.get()) {
                offer(a, bid);
            }
            early.clear();
            context.timerService().registerEventTimeTimer(a.expires());
        }

        @Override
        public void processElement2(final Bid bid, final Context context, final Collector<Tuple2<Long, Long>> out) throws Exception {
            final Auction a = auction.value();
            if (a == null) {
                // Its auction has not arrived yet (another reader), or it closed already: once the
                // watermark passes the bid's time the auction (opened before the bid) would be here.
                early.add(bid);
                context.timerService().registerEventTimeTimer(bid.dateTime());
            } else {
                offer(a, bid);
            }
        }

        private void offer(final Auction a, final Bid bid) throws Exception {
            if (bid.price() >= a.reserve() && bid.dateTime() >= a.dateTime() && bid.dateTime() <= a.expires()) {
                final Long current = best.value();
                if (current == null || bid.price() > current) {
                    best.update(bid.price());
                }
            }
        }

        @Override
        public void onTimer(final long time, final OnTimerContext context, final Collector<Tuple2<Long, Long>> out) throws Exception {
            final Auction a = auction.value();
            if (a == null) {
                early.clear(); // bids on an auction that closed before they came
                return;
            }
            if (time != a.expires()) {
                return; // an early bid's timer, its auction came meanwhile
            }
            final Long price = best.value();
            if (price != null) {
                out.collect(Tuple2.of(a.category(), price));
            }
            auction.clear();
            best.clear();
        }
    }

    /**
     * Per category: how many auctions closed and the sum of their prices (the running average),
     * its final value a row once the input ended — a timer at the end of time, which the bounded
     * input's last watermark fires.
     */
    static final class CategoryTotals extends KeyedProcessFunction<Long, Tuple2<Long, Long>, Long> {
        private transient ValueState<Tuple2<Long, Long>> totals;

        @Override
        public void open(final org.apache.flink.api.common.functions.OpenContext context) {
            totals = getRuntimeContext().getState(new ValueStateDescriptor<>("totals", Types.TUPLE(Types.LONG, Types.LONG)));
        }

        @Override
        public void processElement(final Tuple2<Long, Long> closed, final Context context, final Collector<Long> out) throws Exception {
            Tuple2<Long, Long> now = totals.value();
            if (now == null) {
                now = Tuple2.of(0L, 0L);
                context.timerService().registerEventTimeTimer(Long.MAX_VALUE);
            }
            now.f0++;
            now.f1 += closed.f1;
            totals.update(now);
        }

        @Override
        public void onTimer(final long time, final OnTimerContext context, final Collector<Long> out) throws Exception {
            final Tuple2<Long, Long> last = totals.value();
            out.collect(NexmarkQuery.categoryRow(context.getCurrentKey(), last.f0, last.f1));
        }
    }

    // ---- Q5: bids per auction per sliding window, then the most-bid auctions of each window ----

    private static DataStream<Long> hotItems(final StreamExecutionEnvironment env, final int parallelism) {
        final DataStream<Tuple3<Long, Long, Long>> counts = InMemoryStreams.bids(env, parallelism)
                .keyBy(Bid::auction)
                .window(SlidingEventTimeWindows.of(Duration.ofMillis(NexmarkQuery.WINDOW_MS), Duration.ofMillis(NexmarkQuery.SLIDE_MS)))
                .aggregate(new CountBids(), new StampWindowEnd());
        return counts.keyBy(c -> c.f0).process(new MostBid());
    }

    static final class CountBids implements AggregateFunction<Bid, Long, Long> {
        @Override
        public Long createAccumulator() {
            return 0L;
        }

        @Override
        public Long add(final Bid bid, final Long count) {
            return count + 1;
        }

        @Override
        public Long getResult(final Long count) {
            return count;
        }

        @Override
        public Long merge(final Long a, final Long b) {
            return a + b;
        }
    }

    /** (window end, auction, bids). */
    static final class StampWindowEnd extends ProcessWindowFunction<Long, Tuple3<Long, Long, Long>, Long, TimeWindow> {
        @Override
        public void process(final Long auction, final Context context, final Iterable<Long> counts,
                            final Collector<Tuple3<Long, Long, Long>> out) {
            out.collect(Tuple3.of(context.window().getEnd(), auction, counts.iterator().next()));
        }
    }

    /** Per window end: the auctions of the highest count, emitted when the watermark passes the window. */
    static final class MostBid extends KeyedProcessFunction<Long, Tuple3<Long, Long, Long>, Long> {
        private transient ValueState<Long> max;
        private transient MapState<Long, Long> leaders;

        @Override
        public void open(final org.apache.flink.api.common.functions.OpenContext context) {
            max = getRuntimeContext().getState(new ValueStateDescriptor<>("max", Types.LONG));
            leaders = getRuntimeContext().getMapState(new MapStateDescriptor<>("leaders", Types.LONG, Types.LONG));
        }

        @Override
        public void processElement(final Tuple3<Long, Long, Long> count, final Context context, final Collector<Long> out)
                throws Exception {
            final Long current = max.value();
            if (current == null) {
                context.timerService().registerEventTimeTimer(count.f0 - 1);
            }
            if (current == null || count.f2 > current) {
                max.update(count.f2);
                leaders.clear();
                leaders.put(count.f1, count.f2);
            } else if (count.f2.equals(current)) {
                leaders.put(count.f1, count.f2);
            }
        }

        @Override
        public void onTimer(final long time, final OnTimerContext context, final Collector<Long> out) throws Exception {
            final long end = context.getCurrentKey();
            for (final var leader : leaders.entries()) {
                out.collect(NexmarkQuery.hotItemRow(end, leader.getKey(), leader.getValue()));
            }
            max.clear();
            leaders.clear();
        }
    }

    // ---- Q7: the highest bids of each tumbling window ----

    private static DataStream<Long> highestBids(final StreamExecutionEnvironment env, final int parallelism) {
        return InMemoryStreams.bids(env, parallelism)
                .windowAll(TumblingEventTimeWindows.of(Duration.ofMillis(NexmarkQuery.WINDOW_MS)))
                .aggregate(new HighestBids(), new EmitHighest());
    }

    /** The bids of the highest price so far (all of them when tied). */
    static final class HighestBids implements AggregateFunction<Bid, List<Bid>, List<Bid>> {
        @Override
        public List<Bid> createAccumulator() {
            return new ArrayList<>();
        }

        @Override
        public List<Bid> add(final Bid bid, final List<Bid> best) {
            if (best.isEmpty() || bid.price() > best.get(0).price()) {
                best.clear();
                best.add(bid);
            } else if (bid.price() == best.get(0).price()) {
                best.add(bid);
            }
            return best;
        }

        @Override
        public List<Bid> getResult(final List<Bid> best) {
            return best;
        }

        @Override
        public List<Bid> merge(final List<Bid> a, final List<Bid> b) {
            b.forEach(bid -> add(bid, a));
            return a;
        }
    }

    static final class EmitHighest extends ProcessAllWindowFunction<List<Bid>, Long, TimeWindow> {
        @Override
        public void process(final Context context, final Iterable<List<Bid>> results, final Collector<Long> out) {
            for (final Bid b : results.iterator().next()) {
                out.collect(NexmarkQuery.highestBidRow(context.window().getEnd(), b.auction(), b.bidder(), b.price(), b.dateTime()));
            }
        }
    }

    // ---- Q8: persons and the auctions they opened in the same tumbling window ----

    private static DataStream<Long> newUsers(final StreamExecutionEnvironment env, final int parallelism) {
        return InMemoryStreams.persons(env, parallelism)
                .join(InMemoryStreams.auctions(env, parallelism))
                .where(Person::id).equalTo(Auction::seller)
                .window(TumblingEventTimeWindows.of(Duration.ofMillis(NexmarkQuery.WINDOW_MS)))
                .apply((person, auction) -> NexmarkQuery.newUserRow(NexmarkQuery.tumblingStart(person.dateTime()), person.id(),
                        person.name(), auction.id()), Types.LONG);
    }

    // ---- Q11: bid sessions per bidder ----

    private static DataStream<Long> sessions(final StreamExecutionEnvironment env, final int parallelism) {
        return InMemoryStreams.bids(env, parallelism)
                .keyBy(Bid::bidder)
                .window(EventTimeSessionWindows.withGap(Duration.ofMillis(NexmarkQuery.SESSION_GAP_MS)))
                .aggregate(new CountBids(), new SessionRow());
    }

    static final class SessionRow extends ProcessWindowFunction<Long, Long, Long, TimeWindow> {
        @Override
        public void process(final Long bidder, final Context context, final Iterable<Long> counts, final Collector<Long> out) {
            out.collect(NexmarkQuery.sessionRow(bidder, counts.iterator().next(), context.window().getStart(), context.window().getEnd()));
        }
    }
}
