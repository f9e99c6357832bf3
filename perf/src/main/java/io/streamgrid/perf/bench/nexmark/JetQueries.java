package io.streamgrid.perf.bench.nexmark;

import com.hazelcast.function.FunctionEx;
import com.hazelcast.function.PredicateEx;
import com.hazelcast.function.ToLongFunctionEx;
import com.hazelcast.jet.Traversers;
import com.hazelcast.jet.aggregate.AggregateOperation;
import com.hazelcast.jet.aggregate.AggregateOperations;
import com.hazelcast.jet.datamodel.KeyedWindowResult;
import com.hazelcast.jet.pipeline.Pipeline;
import com.hazelcast.jet.pipeline.WindowDefinition;
import com.hazelcast.jet.pipeline.Sink;
import com.hazelcast.jet.pipeline.SinkBuilder;
import com.hazelcast.jet.pipeline.StreamStage;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.nexmark.Auction;
import io.streamgrid.nexmark.Bid;
import io.streamgrid.nexmark.Person;
import io.streamgrid.nexmark.NexmarkQuery;
import io.streamgrid.perf.bench.SchemaLogSource;

import java.io.Serializable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
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

    /** The pipeline of {@code query} over the logs of {@code setup}'s events under {@code ingest}, or empty when not built yet. */
    static Optional<Pipeline> pipeline(final NexmarkQuery query, final Path ingest, final NexmarkSetup setup) {
        final int localParallelism = setup.parallelism();
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
            case Q3 -> localItems(persons(pipeline, ingest, localParallelism), auctions(pipeline, ingest, localParallelism)).writeTo(rows());
            case Q4 -> closingPrices(auctions(pipeline, ingest, localParallelism), bids(pipeline, ingest, localParallelism),
                    setup.generator().longestAuctionMs()).writeTo(changedRows());
            case Q5 -> hotItems(bids(pipeline, ingest, localParallelism)).writeTo(rows());
            case Q8 -> newUsers(persons(pipeline, ingest, localParallelism), auctions(pipeline, ingest, localParallelism)).writeTo(rows());
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

    /**
     * Q3: the selected sellers and auctions merged into one stream grouped by seller, joined by a
     * stateful mapping that keeps the seller and the auctions that came before her.
     */
    private static StreamStage<Long> localItems(final StreamStage<Person> persons, final StreamStage<Auction> auctions) {
        final StreamStage<Object> sellers = persons.filter(p -> NexmarkQuery.Q3_STATES.contains(p.state())).map(p -> (Object) p);
        final StreamStage<Object> items = auctions.filter(a -> a.category() == NexmarkQuery.Q3_CATEGORY).map(a -> (Object) a);
        return sellers.merge(items)
                .groupingKey(event -> event instanceof Person p ? p.id() : ((Auction) event).seller())
                .flatMapStateful(SellerItems::new, (SellerItems state, Long seller, Object event) -> Traversers.traverseIterable(
                        state.offer(event)));
    }

    /** Q3's state per seller: the person once she came, the auctions that came before her. */
    static final class SellerItems implements Serializable {
        private Person seller;
        private final ArrayList<Auction> waiting = new ArrayList<>();

        List<Long> offer(final Object event) {
            final List<Long> rows = new ArrayList<>();
            if (event instanceof Person person) {
                seller = person;
                waiting.forEach(auction -> rows.add(row(auction)));
                waiting.clear();
            } else if (seller != null) {
                rows.add(row((Auction) event));
            } else {
                waiting.add((Auction) event);
            }
            return rows;
        }

        private long row(final Auction auction) {
            return NexmarkQuery.localItemRow(seller.name(), seller.city(), seller.state(), auction.id());
        }
    }

    /**
     * Q4 in two stateful stages, as a Jet user writes it without timers: each auction with its bids
     * (grouped by auction) until its state expires — once the watermark passed its last event by the
     * longest an auction is open, so after it closed — then its closing price goes to its category,
     * whose running count and sum replace the category's row ({@link ChangedRow}: the old row out,
     * the new in). At the end of the input the rows are each category's final ones.
     */
    private static StreamStage<ChangedRow> closingPrices(final StreamStage<Auction> auctions, final StreamStage<Bid> bids,
                                                         final long longestAuctionMs) {
        final StreamStage<long[]> closed = auctions.map(a -> (Object) a).merge(bids.map(b -> (Object) b))
                .groupingKey(event -> event instanceof Auction a ? a.id() : ((Bid) event).auction())
                .flatMapStateful(longestAuctionMs, AuctionBids::new,
                        (AuctionBids state, Long auction, Object event) -> {
                            state.offer(event);
                            return Traversers.<long[]>empty();
                        },
                        (state, auction, watermark) -> Traversers.traverseIterable(state.closing()));
        return closed.groupingKey(categoryAndPrice -> categoryAndPrice[0])
                .mapStateful(() -> new long[2], (long[] countAndSum, Long category, long[] categoryAndPrice) -> {
                    final boolean hadRow = countAndSum[0] > 0;
                    final long before = NexmarkQuery.categoryRow(category, countAndSum[0], countAndSum[1]);
                    countAndSum[0]++;
                    countAndSum[1] += categoryAndPrice[1];
                    return new ChangedRow(hadRow, before, NexmarkQuery.categoryRow(category, countAndSum[0], countAndSum[1]));
                });
    }

    /**
     * Q4's state per auction: the fields of the auction that matter once it came (its own object
     * would put its strings into every snapshot), its best valid bid, and the price and time of the
     * bids that came before it.
     */
    static final class AuctionBids implements Serializable {
        private boolean opened;
        private long openedAt;
        private long expires;
        private long reserve;
        private long category;
        private long best = -1;
        /** Early bids' price and time, in pairs. */
        private long[] early = new long[0];
        private int earlyFields;

        void offer(final Object event) {
            if (event instanceof Auction a) {
                opened = true;
                openedAt = a.dateTime();
                expires = a.expires();
                reserve = a.reserve();
                category = a.category();
                for (int i = 0; i < earlyFields; i += 2) {
                    offerBid(early[i], early[i + 1]);
                }
                early = new long[0];
                earlyFields = 0;
            } else if (opened) {
                offerBid(((Bid) event).price(), ((Bid) event).dateTime());
            } else {
                if (earlyFields == early.length) {
                    early = Arrays.copyOf(early, Math.max(8, early.length * 2));
                }
                early[earlyFields++] = ((Bid) event).price();
                early[earlyFields++] = ((Bid) event).dateTime();
            }
        }

        private void offerBid(final long price, final long time) {
            if (price >= reserve && time >= openedAt && time <= expires) {
                best = Math.max(best, price);
            }
        }

        /** (category, price) of the auction as it closed, or nothing: no auction, or no bid met its reserve in time. */
        List<long[]> closing() {
            return !opened || best < 0 ? List.of() : List.of(new long[]{category, best});
        }
    }

    /** A row replaced: {@code before} leaves the result (if there was one), {@code after} joins it. */
    record ChangedRow(boolean hadRow, long before, long after) implements Serializable {
    }

    /** Q8: persons and auctions co-grouped by seller per tumbling window, every pair a row. */
    private static StreamStage<Long> newUsers(final StreamStage<Person> persons, final StreamStage<Auction> auctions) {
        return persons.window(WindowDefinition.tumbling(NexmarkQuery.WINDOW_MS))
                .groupingKey(Person::id)
                .aggregate2(auctions.groupingKey(Auction::seller),
                        AggregateOperations.aggregateOperation2(AggregateOperations.toList(), AggregateOperations.toList()))
                .flatMap(group -> {
                    final List<Long> rows = new ArrayList<>();
                    for (final Person person : group.result().f0()) {
                        for (final Auction auction : group.result().f1()) {
                            rows.add(NexmarkQuery.newUserRow(group.start(), person.id(), person.name(), auction.id()));
                        }
                    }
                    return Traversers.traverseIterable(rows);
                });
    }

    /** Q5: bids per auction per sliding window, then per window the auctions of the highest count. */
    private static StreamStage<Long> hotItems(final StreamStage<Bid> bids) {
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
    private static StreamStage<Long> highestBids(final StreamStage<Bid> bids) {
        return bids.window(WindowDefinition.tumbling(NexmarkQuery.WINDOW_MS))
                .aggregate(AggregateOperation.withCreate(Leaders::new)
                        .<Bid>andAccumulate((leaders, bid) -> leaders.offer(bid.price(),
                                new long[]{bid.auction(), bid.bidder(), bid.price(), bid.dateTime()}))
                        .andCombine(Leaders::combine)
                        .andExportFinish(Leaders::rows))
                .flatMap(result -> Traversers.traverseIterable(result.result())
                        .map(row -> NexmarkQuery.highestBidRow(result.end(), row[0], row[1], row[2], row[3])));
    }

    private static StreamStage<Bid> bids(final Pipeline pipeline, final Path ingest, final int localParallelism) {
        return stream(pipeline, ingest, BID, localParallelism, r -> new Bid(r.keyLong(), r.get(BID_BIDDER), r.get(BID_PRICE),
                        r.get(BID_CHANNEL), r.get(BID_URL), r.get(BID_TIME), r.get(BID_EXTRA)),
                end -> new Bid(END_ID, -1, 0, "", "", end, ""), Bid::dateTime, bid -> bid.auction() == END_ID);
    }

    private static StreamStage<Person> persons(final Pipeline pipeline, final Path ingest, final int localParallelism) {
        return stream(pipeline, ingest, PERSON, localParallelism, r -> new Person(r.keyLong(), r.get(PERSON_NAME), r.get(PERSON_EMAIL),
                        r.get(PERSON_CARD), r.get(PERSON_CITY), r.get(PERSON_STATE), r.get(PERSON_TIME), r.get(PERSON_EXTRA)),
                end -> new Person(END_ID, "", "", "", "", "", end, ""), Person::dateTime, person -> person.id() == END_ID);
    }

    private static StreamStage<Auction> auctions(final Pipeline pipeline, final Path ingest, final int localParallelism) {
        return stream(pipeline, ingest, AUCTION, localParallelism, r -> new Auction(r.keyLong(), r.get(AUCTION_ITEM),
                        r.get(AUCTION_DESCRIPTION), r.get(AUCTION_INITIAL_BID), r.get(AUCTION_RESERVE), r.get(AUCTION_TIME),
                        r.get(AUCTION_EXPIRES), r.get(AUCTION_SELLER), r.get(AUCTION_CATEGORY), r.get(AUCTION_EXTRA)),
                end -> new Auction(END_ID, "", "", 0, 0, end, end, END_ID, -1, ""), Auction::dateTime, auction -> auction.id() == END_ID);
    }

    /**
     * One schema's log as a stream with event times; the partitions' end-of-stream records become
     * one item ({@code endAt}, given its time: a day after the last event) that moves the watermark
     * past every window and is dropped right after ({@code isEnd}).
     */
    private static <T> StreamStage<T> stream(final Pipeline pipeline, final Path ingest, final EventSchema schema,
                                             final int localParallelism, final FunctionEx<SchemaRecord, T> toItem,
                                             final FunctionEx<Long, T> endAt, final ToLongFunctionEx<T> timeOf,
                                             final PredicateEx<T> isEnd) {
        return pipeline.readFrom(SchemaLogSource.replayable(SchemaLog.directoryOf(ingest, schema.name()), schema, localParallelism,
                        toItem, last -> endAt.apply(last + DAY_MS)))
                .withTimestamps(timeOf, 0)
                .filter(item -> !isEnd.test(item));
    }

    /** The id (auction, person) of the item that ends a stream: none. */
    private static final long END_ID = -1;
    private static final long DAY_MS = 86_400_000;

    /** Rows that replace rows: the one before taken out of the result, the new one put in. */
    private static Sink<ChangedRow> changedRows() {
        return SinkBuilder.sinkBuilder("changed-rows", context -> ResultRows.PLAIN_JET).<ChangedRow>receiveFn((rows, change) -> {
            if (change.hadRow()) {
                rows.remove(change.before());
            }
            rows.add(change.after());
        }).build();
    }

    private static Sink<Long> rows() {
        return SinkBuilder.sinkBuilder("rows", context -> ResultRows.PLAIN_JET).<Long>receiveFn(ResultRows::add).build();
    }
}
