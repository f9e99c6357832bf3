package io.streamgrid.nexmark;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class NexmarkGeneratorTest {
    private static final long BASE = 1_700_000_000_000L;

    @Test
    void when_anEventIsAskedTwiceOrFromAnotherGenerator_then_itIsTheSame() {
        final NexmarkGenerator one = new NexmarkGenerator(42, 10_000, BASE, 100);
        final NexmarkGenerator two = new NexmarkGenerator(42, 10_000, BASE, 100);
        for (long n = 0; n < 5_000; n += 7) {
            assertThat(one.event(n)).isEqualTo(two.event(n));
        }
        assertThat(new NexmarkGenerator(43, 10_000, BASE, 100).event(4)).isNotEqualTo(one.event(4));
    }

    @Test
    void when_eventsAreCounted_then_theIthPersonAuctionAndBidAreTheEventsOfThoseNumbers() {
        final NexmarkGenerator generator = new NexmarkGenerator(1, 10_000, BASE, 0);
        long persons = 0;
        long auctions = 0;
        long bids = 0;
        for (long n = 0; n < 10_000; n++) {
            assertThat(NexmarkGenerator.personsBefore(n)).isEqualTo(persons);
            assertThat(NexmarkGenerator.auctionsBefore(n)).isEqualTo(auctions);
            assertThat(NexmarkGenerator.bidsBefore(n)).isEqualTo(bids);
            final Object event = generator.event(n);
            if (event instanceof Person p) {
                assertThat(NexmarkGenerator.eventOfPerson(persons)).isEqualTo(n);
                assertThat(p.id()).isEqualTo(NexmarkGenerator.FIRST_PERSON_ID + persons++);
            } else if (event instanceof Auction a) {
                assertThat(NexmarkGenerator.eventOfAuction(auctions)).isEqualTo(n);
                assertThat(a.id()).isEqualTo(NexmarkGenerator.FIRST_AUCTION_ID + auctions++);
            } else {
                assertThat(NexmarkGenerator.eventOfBid(bids)).isEqualTo(n);
                bids++;
            }
        }
        assertThat(new long[]{persons, auctions, bids}).containsExactly(200, 600, 9_200);
    }

    @Test
    void when_auctionsAreGeneratedAtAnyRate_then_noneIsOpenLongerThanTheLongestAuction() {
        for (final long rate : new long[]{1, 7, 10_000, 3_000_000}) {
            final NexmarkGenerator generator = new NexmarkGenerator(11, rate, BASE, 0);
            long longest = 0;
            for (long i = 0; i < 20_000; i++) {
                final Auction auction = generator.auction(i);
                longest = Math.max(longest, auction.expires() - auction.dateTime());
            }
            assertThat(longest).as("rate %d", rate).isPositive().isLessThanOrEqualTo(generator.longestAuctionMs());
            // A bound, not a guess: within a few percent and the rounding of the largest one seen.
            assertThat(longest).as("rate %d", rate).isGreaterThanOrEqualTo(generator.longestAuctionMs() * 95 / 100 - 2);
        }
    }

    /**
     * Oracle: the specification's shape — sellers and bidders are people who joined before, bids go
     * to auctions opened before, half the bids to the hot auction, most auctions by the hot seller,
     * event time in order at the configured rate.
     */
    @Test
    void when_aStreamIsGenerated_then_itHasNexmarksShape() {
        final NexmarkGenerator generator = new NexmarkGenerator(7, 10_000, BASE, 100);
        long lastTime = Long.MIN_VALUE;
        long bids = 0;
        long hotBids = 0;
        long auctions = 0;
        long hotAuctions = 0;
        final Map<Long, Long> bidsPerBidder = new HashMap<>();
        for (long n = 0; n < 100_000; n++) {
            final Object event = generator.event(n);
            final long time = generator.timeOf(n);
            assertThat(time).isGreaterThanOrEqualTo(lastTime);
            lastTime = time;
            final long newestPerson = NexmarkGenerator.FIRST_PERSON_ID + NexmarkGenerator.personsBefore(n) - 1;
            final long newestAuction = NexmarkGenerator.FIRST_AUCTION_ID + NexmarkGenerator.auctionsBefore(n) - 1;
            if (event instanceof Auction a) {
                auctions++;
                assertThat(a.dateTime()).isEqualTo(time);
                assertThat(a.seller()).isBetween(NexmarkGenerator.FIRST_PERSON_ID, newestPerson);
                assertThat(a.expires()).isGreaterThan(a.dateTime());
                assertThat(a.reserve()).isGreaterThan(a.initialBid());
                assertThat(a.category()).isBetween(10L, 14L);
                if (a.seller() == newestPerson - (newestPerson - NexmarkGenerator.FIRST_PERSON_ID) % 4) {
                    hotAuctions++;
                }
            } else if (event instanceof Bid b) {
                bids++;
                assertThat(b.dateTime()).isEqualTo(time);
                assertThat(b.auction()).isBetween(newestAuction - 100, newestAuction);
                assertThat(b.bidder()).isBetween(NexmarkGenerator.FIRST_PERSON_ID, newestPerson);
                assertThat(b.price()).isBetween(100L, 100_000_000L);
                if (b.auction() == newestAuction - (newestAuction - NexmarkGenerator.FIRST_AUCTION_ID) % 2) {
                    hotBids++;
                }
                bidsPerBidder.merge(b.bidder(), 1L, Long::sum);
            }
        }
        assertThat(lastTime - BASE).isEqualTo(9_999);
        assertThat((double) hotBids / bids).as("bids on the hot auction").isBetween(0.48, 0.56);
        assertThat((double) hotAuctions / auctions).as("auctions of the hot seller").isBetween(0.72, 0.80);
        final long busiest = bidsPerBidder.values().stream().mapToLong(Long::longValue).max().orElseThrow();
        assertThat(busiest).as("a hot bidder's bids").isGreaterThan(bids / 1_000);
    }

    @Test
    void when_theReferenceRunsTheSimpleQueries_then_itsRowCountsFollowTheStream() {
        final NexmarkGenerator generator = new NexmarkGenerator(3, 10_000, BASE, 0);
        final long events = 50_000;
        final long bids = NexmarkGenerator.bidsBefore(events);
        assertThat(NexmarkReference.run(NexmarkQuery.Q0, generator, events).rows()).isEqualTo(bids);
        assertThat(NexmarkReference.run(NexmarkQuery.Q1, generator, events).rows()).isEqualTo(bids);
        assertThat(NexmarkReference.run(NexmarkQuery.Q1, generator, events))
                .isNotEqualTo(NexmarkReference.run(NexmarkQuery.Q0, generator, events));
        assertThat(NexmarkReference.run(NexmarkQuery.Q2, generator, events).rows()).isBetween(1L, bids / 20);
        assertThat(NexmarkReference.run(NexmarkQuery.Q4, generator, events).rows()).isEqualTo(NexmarkGenerator.CATEGORIES);
        // 5 s of event time: Q7's tumbling windows of 10 s hold one window; Q5's sliding ones end every 2 s up to 15 s.
        assertThat(NexmarkReference.run(NexmarkQuery.Q7, generator, events).rows()).isGreaterThanOrEqualTo(1);
        assertThat(NexmarkReference.run(NexmarkQuery.Q5, generator, events).rows()).isGreaterThanOrEqualTo(7);
        assertThat(NexmarkReference.run(NexmarkQuery.Q3, generator, events).rows()).isPositive();
        assertThat(NexmarkReference.run(NexmarkQuery.Q8, generator, events).rows()).isPositive();
        assertThat(NexmarkReference.run(NexmarkQuery.Q11, generator, events).rows()).isPositive();
    }

    @Test
    void when_rowsArriveInAnotherOrder_then_theFingerprintIsTheSameAndAMissingOrDoubledRowChangesIt() {
        final long a = NexmarkQuery.selectionRow(1, 2);
        final long b = NexmarkQuery.selectionRow(2, 1);
        final ResultFingerprint ab = ResultFingerprint.of(a).plus(ResultFingerprint.of(b));
        assertThat(a).as("fields in another order").isNotEqualTo(b);
        assertThat(ResultFingerprint.of(b).plus(ResultFingerprint.of(a))).isEqualTo(ab);
        assertThat(ab.plus(ResultFingerprint.of(a))).isNotEqualTo(ab);
        assertThat(ResultFingerprint.of(a).plus(ResultFingerprint.of(NexmarkQuery.selectionRow(1, 3)))).isNotEqualTo(ab);
        assertThat(NexmarkQuery.newUserRow(1, 2, "ab", 3)).isNotEqualTo(NexmarkQuery.newUserRow(1, 2, "ba", 3));
    }
}
