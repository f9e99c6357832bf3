package io.streamgrid.perf.bench.nexmark;

import io.streamgrid.jobs.join.StreamJoin;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.LongKeyContext;
import io.streamgrid.jobs.keyed.LongKeyedFunction;
import io.streamgrid.jobs.keyed.StateCodec;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.pipeline.JobDefinition;
import io.streamgrid.jobs.pipeline.ResultHandler;
import io.streamgrid.jobs.pipeline.StateWriter;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.window.Aggregations;
import io.streamgrid.jobs.window.Counter;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.nexmark.NexmarkQuery;

import java.util.List;
import java.util.Optional;

import static io.streamgrid.perf.bench.nexmark.NexmarkSchemas.*;

/**
 * The NEXMark queries as a StreamGrid user writes them, on the public job API alone: keyed
 * functions over the schema logs, whose rows go to {@link ResultRows#STREAMGRID} (the member runs
 * in the benchmark's JVM) instead of a state map, as Flink's and Jet's go to their sinks.
 */
final class StreamGridQueries {
    /**
     * Events come in event order per partition; a log a job emits into (a re-keyed copy, a first
     * stage's results) follows its writers' clocks, so no disorder is allowed for their drift either.
     */
    static final TimePolicy IN_ORDER = TimePolicy.of(0, 0);
    /** An interval join's bound for "ever after": ten years. */
    private static final long ALL_TIME_MS = 10L * 365 * 86_400_000;

    private StreamGridQueries() {
    }

    /** The jobs that compute {@code query}, or empty when StreamGrid's version is not built yet. */
    static Optional<List<JobDefinition>> jobs(final NexmarkQuery query) {
        return switch (query) {
            case Q0 -> Optional.of(List.of(bids("nexmark-q0", new PassThrough())));
            case Q1 -> Optional.of(List.of(bids("nexmark-q1", new CurrencyConversion())));
            case Q2 -> Optional.of(List.of(bids("nexmark-q2", new Selection())));
            case Q3 -> Optional.of(List.of(StreamJoin.rekey("nexmark-q3-auctions-by-seller", AUCTION, CATEGORY_AUCTION_BY_SELLER,
                    auction -> auction.get(AUCTION_CATEGORY) == NexmarkQuery.Q3_CATEGORY), localItems()));
            case Q4 -> Optional.of(ClosingPrices.jobs());
            case Q5 -> Optional.of(WindowLeaders.hotItems());
            case Q7 -> Optional.of(WindowLeaders.highestBids());
            case Q8 -> Optional.of(List.of(auctionsBySeller(), newUsers()));
            case Q11 -> Optional.of(List.of(StreamJoin.rekey("nexmark-bids-by-bidder", BID, BID_BY_BIDDER), sessions()));
            default -> Optional.empty();
        };
    }

    /**
     * Q11 reads the bids re-keyed by bidder. Their copies reach each partition of that log in the
     * order the re-keying job's processors write them, which drift apart freely while they drain a
     * backlog; the log's clock is the slowest writer's, so sessions close as it moves, none late.
     */
    private static JobDefinition sessions() {
        return WindowedJob.builder("nexmark-q11", BID_BY_BIDDER)
                .session(NexmarkQuery.SESSION_GAP_MS)
                .time(IN_ORDER)
                .aggregate(Aggregations.count())
                .handledBy(job -> new SessionRows());
    }

    private static JobDefinition auctionsBySeller() {
        return StreamJoin.rekey("nexmark-auctions-by-seller", AUCTION, AUCTION_BY_SELLER);
    }

    /** A join over a re-keyed log: in order, and an idle timeout above the time a copy takes to begin. */
    private static final TimePolicy JOIN_TIME = IN_ORDER.withIdleTimeout(60_000);

    /**
     * Q3: each seller with every auction she opens, over all time — an interval join whose auctions
     * come from the seller's joining on (a person joins before she sells). Both sides select first,
     * as Flink's and Jet's versions filter before their joins: the re-key copies only the category's
     * auctions, the join keeps only persons of the three states.
     */
    private static JobDefinition localItems() {
        return StreamJoin.interval("nexmark-q3", PERSON, CATEGORY_AUCTION_BY_SELLER, 0, ALL_TIME_MS)
                .time(JOIN_TIME)
                .leftWhere(person -> NexmarkQuery.Q3_STATES.contains(person.get(PERSON_STATE)))
                .onPair((person, auction, context) -> ResultRows.STREAMGRID.add(NexmarkQuery.localItemRow(person.get(PERSON_NAME),
                        person.get(PERSON_CITY), person.get(PERSON_STATE), auction.get(SOLD_ID)), pairDue(person, auction)))
                .build();
    }

    /** Q8: persons and the auctions they opened in the same tumbling window. */
    private static JobDefinition newUsers() {
        return StreamJoin.tumbling("nexmark-q8", PERSON, AUCTION_BY_SELLER, NexmarkQuery.WINDOW_MS)
                .time(JOIN_TIME)
                .onPair((person, auction, context) -> ResultRows.STREAMGRID.add(NexmarkQuery.newUserRow(
                        NexmarkQuery.tumblingStart(person.get(PERSON_TIME)), context.longKey(), person.get(PERSON_NAME),
                        auction.get(SOLD_ID)), pairDue(person, auction)))
                .build();
    }

    /** A pair's due time: the later of its two events' times. */
    private static long pairDue(final SchemaRecord person, final SchemaRecord auction) {
        return Math.max(person.eventTime(), auction.eventTime());
    }

    /** Q11's rows: each session as it closes. */
    static final class SessionRows implements ResultHandler<Counter> {
        @Override
        public void onWindow(final long bidder, final long start, final long end, final Counter count, final int updateSequence,
                             final boolean afterWatermark, final StateWriter out) {
            ResultRows.STREAMGRID.add(NexmarkQuery.sessionRow(bidder, count.value(), start, end), end);
        }

        @Override
        public void onRetract(final long bidder, final long start, final StateWriter out) {
            throw new IllegalStateException("session " + bidder + "@" + start + " retracted: the benchmark allows no late merges");
        }
    }

    private static JobDefinition bids(final String name, final LongKeyedFunction<Void> function) {
        return KeyedJob.<Void>builder(name, BID).longKeyed(function).state(StateCodec.none()).time(IN_ORDER).build();
    }

    /** Q0. */
    static final class PassThrough implements LongKeyedFunction<Void> {
        @Override
        public void onEvent(final SchemaRecord bid, final LongKeyContext<Void> context) {
            ResultRows.STREAMGRID.add(NexmarkQuery.bidRow(context.longKey(), bid.get(BID_BIDDER), bid.get(BID_PRICE), bid.get(BID_TIME)),
                    bid.eventTime());
        }
    }

    /** Q1. */
    static final class CurrencyConversion implements LongKeyedFunction<Void> {
        @Override
        public void onEvent(final SchemaRecord bid, final LongKeyContext<Void> context) {
            ResultRows.STREAMGRID.add(NexmarkQuery.bidRow(context.longKey(), bid.get(BID_BIDDER),
                    NexmarkQuery.euroCents(bid.get(BID_PRICE)), bid.get(BID_TIME)), bid.eventTime());
        }
    }

    /** Q2. */
    static final class Selection implements LongKeyedFunction<Void> {
        @Override
        public void onEvent(final SchemaRecord bid, final LongKeyContext<Void> context) {
            final long auction = context.longKey();
            if (auction % NexmarkQuery.Q2_MODULUS == 0) {
                ResultRows.STREAMGRID.add(NexmarkQuery.selectionRow(auction, bid.get(BID_PRICE)), bid.eventTime());
            }
        }
    }
}
