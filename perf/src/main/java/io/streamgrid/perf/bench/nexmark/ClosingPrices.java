package io.streamgrid.perf.bench.nexmark;

import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.LongKeyContext;
import io.streamgrid.jobs.keyed.LongKeyedFunction;
import io.streamgrid.jobs.keyed.StateCodec;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.pipeline.JobDefinition;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.nexmark.NexmarkQuery;

import java.util.List;

import static io.streamgrid.perf.bench.nexmark.NexmarkSchemas.*;

/**
 * NEXMark Q4 on StreamGrid, in two stages as Flink's and Jet's versions are: auctions and their bids
 * (co-partitioned: bids are keyed by the auction they are on) meet in a keyed job that keeps each
 * auction's best bid meeting its reserve within its time and, when the auction closes (a timer at
 * its expiry; every open one at the end of the input), emits it into a log keyed by category; a
 * second keyed job sums the closing prices per category and gives each category's final row at the
 * end of the input.
 */
final class ClosingPrices {
    /** Auction state: date_time, expires, reserve, category, best price (-1: none yet). */
    private static final int TIME = 0;
    private static final int EXPIRES = 1;
    private static final int RESERVE = 2;
    private static final int CATEGORY = 3;
    private static final int BEST = 4;
    /** A category's row is due at the end of the input only: a timer beyond any event time. */
    private static final long AT_THE_END = Long.MAX_VALUE / 2;

    private ClosingPrices() {
    }

    /** The closing job, then the per-category job. */
    static List<JobDefinition> jobs() {
        final KeyedJob<long[]> closing = KeyedJob.<long[]>builder("nexmark-q4-closing", AUCTION)
                .alsoReads(BID)
                .longKeyed(new Closing())
                .state(StateCodec.longs(5))
                // Both logs are in event-time order and merged by it: nothing comes behind the watermark.
                .time(TimePolicy.of(0, 0).withIdleTimeout(60_000))
                .emits(AUCTION_CLOSED)
                .build();
        final KeyedJob<long[]> categories = KeyedJob.<long[]>builder("nexmark-q4-categories", AUCTION_CLOSED)
                .longKeyed(new CategoryTotals())
                .state(StateCodec.longs(2))
                // The closed auctions' log follows the closing job's clock: nothing of it comes late.
                .time(StreamGridQueries.IN_ORDER)
                .build();
        return List.of(closing, categories);
    }

    /** Each auction with its best valid bid until it closes. */
    static final class Closing implements LongKeyedFunction<long[]> {
        private transient SchemaLayout auctionLayout;

        @Override
        public void onEvent(final SchemaRecord event, final LongKeyContext<long[]> context) {
            if (isAuction(event)) {
                final long expires = event.get(AUCTION_EXPIRES);
                context.setState(new long[] {event.get(AUCTION_TIME), expires, event.get(AUCTION_RESERVE), event.get(AUCTION_CATEGORY), -1});
                context.registerTimer(expires + 1); // after every bid at the expiry itself
                return;
            }
            final long[] auction = context.state();
            final long price = event.get(BID_PRICE);
            final long time = event.get(BID_TIME);
            if (auction != null && price >= auction[RESERVE] && time >= auction[TIME] && time <= auction[EXPIRES] && price > auction[BEST]) {
                auction[BEST] = price;
                context.setState(auction);
            }
        }

        @Override
        public void onTimer(final long time, final LongKeyContext<long[]> context) {
            final long[] auction = context.state();
            if (auction == null) {
                return;
            }
            final SchemaRecord closed = context.newEvent(AUCTION_CLOSED);
            closed.set(CLOSED_CATEGORY, auction[CATEGORY]).set(CLOSED_TIME, auction[EXPIRES]).set(CLOSED_AUCTION, context.longKey())
                    .set(CLOSED_PRICE, auction[BEST]);
            context.emit(closed);
            context.clearState();
        }

        private boolean isAuction(final SchemaRecord event) {
            final SchemaLayout layout = event.layout();
            if (layout == auctionLayout) {
                return true;
            }
            if (layout.schema().name().equals(AUCTION.name())) {
                auctionLayout = layout;
                return true;
            }
            return false;
        }
    }

    /** Per category: how many auctions closed with a winning bid, and their prices' sum; one row at the end. */
    static final class CategoryTotals implements LongKeyedFunction<long[]> {
        @Override
        public void onEvent(final SchemaRecord closed, final LongKeyContext<long[]> context) {
            final long price = closed.get(CLOSED_PRICE);
            if (price < 0) {
                return;
            }
            long[] totals = context.state();
            if (totals == null) {
                totals = new long[2];
                context.registerTimer(AT_THE_END);
            }
            totals[0]++;
            totals[1] += price;
            context.setState(totals);
        }

        @Override
        public void onTimer(final long time, final LongKeyContext<long[]> context) {
            final long[] totals = context.state();
            ResultRows.STREAMGRID.add(NexmarkQuery.categoryRow(context.longKey(), totals[0], totals[1]));
        }
    }
}
