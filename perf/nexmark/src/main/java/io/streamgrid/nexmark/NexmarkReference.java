package io.streamgrid.nexmark;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The queries computed the plainest way — one thread, the events in order, everything in memory —
 * as the oracle the engines' results are checked against (on inputs small enough for it).
 * Definitions: {@link NexmarkQuery}.
 */
public final class NexmarkReference {
    private NexmarkReference() {
    }

    /** The fingerprint of {@code query}'s result over events {@code 0 .. events-1} of {@code generator}. */
    public static ResultFingerprint run(final NexmarkQuery query, final NexmarkGenerator generator, final long events) {
        final List<Person> persons = new ArrayList<>();
        final List<Auction> auctions = new ArrayList<>();
        final List<Bid> bids = new ArrayList<>();
        for (long n = 0; n < events; n++) {
            final Object event = generator.event(n);
            if (event instanceof Person p) {
                persons.add(p);
            } else if (event instanceof Auction a) {
                auctions.add(a);
            } else {
                bids.add((Bid) event);
            }
        }
        final Rows rows = new Rows();
        switch (query) {
            case Q0 -> bids.forEach(b -> rows.add(NexmarkQuery.bidRow(b.auction(), b.bidder(), b.price(), b.dateTime())));
            case Q1 -> bids.forEach(b -> rows.add(NexmarkQuery.bidRow(b.auction(), b.bidder(), NexmarkQuery.euroCents(b.price()),
                    b.dateTime())));
            case Q2 -> bids.stream().filter(b -> b.auction() % NexmarkQuery.Q2_MODULUS == 0)
                    .forEach(b -> rows.add(NexmarkQuery.selectionRow(b.auction(), b.price())));
            case Q3 -> localItems(persons, auctions, rows);
            case Q4 -> closingPrices(auctions, bids, rows);
            case Q5 -> hotItems(bids, rows);
            case Q7 -> highestBids(bids, rows);
            case Q8 -> newUsers(persons, auctions, rows);
            case Q11 -> sessions(bids, rows);
        }
        return rows.fingerprint;
    }

    private static void localItems(final List<Person> persons, final List<Auction> auctions, final Rows rows) {
        final Map<Long, Person> sellers = new HashMap<>();
        persons.stream().filter(p -> NexmarkQuery.Q3_STATES.contains(p.state())).forEach(p -> sellers.put(p.id(), p));
        for (final Auction a : auctions) {
            final Person p = sellers.get(a.seller());
            if (a.category() == NexmarkQuery.Q3_CATEGORY && p != null) {
                rows.add(NexmarkQuery.localItemRow(p.name(), p.city(), p.state(), a.id()));
            }
        }
    }

    private static void closingPrices(final List<Auction> auctions, final List<Bid> bids, final Rows rows) {
        final Map<Long, Auction> byId = new HashMap<>();
        auctions.forEach(a -> byId.put(a.id(), a));
        final Map<Long, Long> best = new HashMap<>();
        for (final Bid b : bids) {
            final Auction a = byId.get(b.auction());
            if (a != null && b.price() >= a.reserve() && b.dateTime() >= a.dateTime() && b.dateTime() <= a.expires()) {
                best.merge(a.id(), b.price(), Math::max);
            }
        }
        final Map<Long, long[]> perCategory = new TreeMap<>();
        best.forEach((auction, price) -> {
            final long[] sums = perCategory.computeIfAbsent(byId.get(auction).category(), c -> new long[2]);
            sums[0]++;
            sums[1] += price;
        });
        perCategory.forEach((category, sums) -> rows.add(NexmarkQuery.categoryRow(category, sums[0], sums[1])));
    }

    private static void hotItems(final List<Bid> bids, final Rows rows) {
        // window end → auction → bids
        final Map<Long, Map<Long, Long>> counts = new TreeMap<>();
        for (final Bid b : bids) {
            final long firstEnd = Math.floorDiv(b.dateTime(), NexmarkQuery.SLIDE_MS) * NexmarkQuery.SLIDE_MS + NexmarkQuery.SLIDE_MS;
            for (long end = firstEnd; end - NexmarkQuery.WINDOW_MS <= b.dateTime(); end += NexmarkQuery.SLIDE_MS) {
                counts.computeIfAbsent(end, e -> new HashMap<>()).merge(b.auction(), 1L, Long::sum);
            }
        }
        counts.forEach((end, byAuction) -> {
            final long max = byAuction.values().stream().mapToLong(Long::longValue).max().orElse(0);
            byAuction.forEach((auction, count) -> {
                if (count == max) {
                    rows.add(NexmarkQuery.hotItemRow(end, auction, count));
                }
            });
        });
    }

    private static void highestBids(final List<Bid> bids, final Rows rows) {
        final Map<Long, List<Bid>> byWindow = new TreeMap<>();
        for (final Bid b : bids) {
            byWindow.computeIfAbsent(NexmarkQuery.tumblingStart(b.dateTime()), w -> new ArrayList<>()).add(b);
        }
        byWindow.forEach((start, inWindow) -> {
            final long max = inWindow.stream().mapToLong(Bid::price).max().orElse(0);
            inWindow.stream().filter(b -> b.price() == max).forEach(b -> rows.add(NexmarkQuery.highestBidRow(start + NexmarkQuery.WINDOW_MS,
                    b.auction(), b.bidder(), b.price(), b.dateTime())));
        });
    }

    private static void newUsers(final List<Person> persons, final List<Auction> auctions, final Rows rows) {
        final Map<Long, Person> byId = new HashMap<>();
        persons.forEach(p -> byId.put(p.id(), p));
        for (final Auction a : auctions) {
            final Person p = byId.get(a.seller());
            final long window = NexmarkQuery.tumblingStart(a.dateTime());
            if (p != null && NexmarkQuery.tumblingStart(p.dateTime()) == window) {
                rows.add(NexmarkQuery.newUserRow(window, p.id(), p.name(), a.id()));
            }
        }
    }

    private static void sessions(final List<Bid> bids, final Rows rows) {
        final Map<Long, long[]> open = new HashMap<>(); // bidder → {count, first, last}
        for (final Bid b : bids) {
            final long[] session = open.get(b.bidder());
            if (session != null && b.dateTime() - session[2] < NexmarkQuery.SESSION_GAP_MS) {
                session[0]++;
                session[2] = Math.max(session[2], b.dateTime());
            } else {
                if (session != null) {
                    rows.add(NexmarkQuery.sessionRow(b.bidder(), session[0], session[1], session[2] + NexmarkQuery.SESSION_GAP_MS));
                }
                open.put(b.bidder(), new long[]{1, b.dateTime(), b.dateTime()});
            }
        }
        open.forEach((bidder, s) -> rows.add(NexmarkQuery.sessionRow(bidder, s[0], s[1], s[2] + NexmarkQuery.SESSION_GAP_MS)));
    }

    private static final class Rows {
        ResultFingerprint fingerprint = ResultFingerprint.EMPTY;

        void add(final long row) {
            fingerprint = fingerprint.plus(ResultFingerprint.of(row));
        }
    }
}
