package io.streamgrid.nexmark;

import java.util.Locale;
import java.util.Set;

/**
 * The NEXMark queries this benchmark runs, with the exact result each must compute — the same in
 * every engine, so their fingerprints ({@link ResultFingerprint}) can be compared. Times are event
 * times in epoch milliseconds; windows are aligned to the epoch, a window {@code [start, end)}
 * holds the events with {@code start ≤ time < end}; prices are cents. Each query's row is given by
 * a {@code row} method here — its fields, in order, hashed ({@link RowHash}) — the one place its
 * shape is written.
 *
 * <p><b>Due times</b> (a paced run's result latency, {@link PacedRun}): a row is due at the event
 * time by which every event it depends on has come — Q0–Q2 the bid's time; Q3 and Q8 the later of
 * the person's and the auction's time (Q8's pair is known once both came, whichever window engine
 * holds it to the window's end); Q5 and Q7 the window's end; Q11 the session's end (its last bid
 * plus the gap). Q4's rows are each category's final values at the end of the input: no latency.
 * An engine whose rows carry only the window's end as their time (Flink's window join, Q8) is
 * measured from there, which understates its latency, never overstates it.
 */
public enum NexmarkQuery {
    /** Pass-through: every bid, as it is. */
    Q0("pass-through: every bid"),
    /** Currency conversion: every bid with its price in euro cents ({@code price × 908 / 1000}, rounded down). */
    Q1("currency conversion: every bid's price in euros"),
    /** Selection: the bids on auctions whose id is a multiple of 123. */
    Q2("selection: bids on every 123rd auction"),
    /** Local item suggestion: sellers living in OR, ID or CA with each auction they open in category 10 (a join over all time). */
    Q3("local item suggestion: person-auction join"),
    /**
     * Average closing price per category: an auction closes at its {@code expires} with the highest
     * bid at or above its reserve made from its opening to its expiry, both included (none: not
     * counted); per category, how many auctions closed and the sum of their closing prices once
     * the input ended (the final value of the running average).
     */
    Q4("average closing price per category"),
    /** Hot items: per sliding window of 10 s every 2 s, the auction(s) with the most bids and their count. */
    Q5("hot items: most-bid auctions per sliding window"),
    /** Highest bid: per tumbling window of 10 s, the bid(s) of the highest price. */
    Q7("highest bid per tumbling window"),
    /** Monitor new users: per tumbling window of 10 s, each person who joined with each auction they opened in the same window. */
    Q8("monitor new users: window join of persons and auctions"),
    /** User sessions: per bidder, sessions of bids no more than 10 s apart, with their bid count. */
    Q11("user sessions: bids per bidder session");

    public static final long WINDOW_MS = 10_000;
    public static final long SLIDE_MS = 2_000;
    public static final long SESSION_GAP_MS = 10_000;
    public static final long Q2_MODULUS = 123;
    public static final long Q3_CATEGORY = 10;
    public static final Set<String> Q3_STATES = Set.of("OR", "ID", "CA");

    private final String title;

    NexmarkQuery(final String title) {
        this.title = title;
    }

    public String title() {
        return title;
    }

    /** The query named {@code name} ({@code q5} or {@code Q5}). */
    public static NexmarkQuery named(final String name) {
        try {
            return valueOf(name.toUpperCase(Locale.ROOT));
        } catch (final IllegalArgumentException e) {
            throw new IllegalArgumentException("no NEXMark query " + name + "; the queries are " + java.util.Arrays.toString(values()));
        }
    }

    /** Whether a paced run measures this query's result latency: all but Q4 (see the due times above). */
    public boolean latencyMeasured() {
        return this != Q4;
    }

    /** Whether this query keeps state between events (all but Q0–Q2): where an engine's state backend matters. */
    public boolean keepsState() {
        return !(this == Q0 || this == Q1 || this == Q2);
    }

    /** Whether this query's rows are due at a window's (or session's) end rather than at an event's time. */
    public boolean dueAtWindowEnd() {
        return this == Q5 || this == Q7 || this == Q11;
    }

    /** A price in dollar cents in euro cents (Q1). */
    public static long euroCents(final long dollarCents) {
        return dollarCents * 908 / 1000;
    }

    /** Start of the tumbling window of {@code time}. */
    public static long tumblingStart(final long time) {
        return Math.floorDiv(time, WINDOW_MS) * WINDOW_MS;
    }

    // ---- each query's row, as its hash ----

    /** Q0 and Q1: one bid (Q1 with the converted price). */
    public static long bidRow(final long auction, final long bidder, final long price, final long dateTime) {
        return RowHash.of(auction, bidder, price, dateTime);
    }

    /** Q2. */
    public static long selectionRow(final long auction, final long price) {
        return RowHash.of(auction, price);
    }

    /** Q3. */
    public static long localItemRow(final String name, final String city, final String state, final long auction) {
        return RowHash.of(RowHash.text(name), RowHash.text(city), RowHash.text(state), auction);
    }

    /** Q4. */
    public static long categoryRow(final long category, final long closed, final long sumOfPrices) {
        return RowHash.of(category, closed, sumOfPrices);
    }

    /** Q5. */
    public static long hotItemRow(final long windowEnd, final long auction, final long bids) {
        return RowHash.of(windowEnd, auction, bids);
    }

    /** Q7. */
    public static long highestBidRow(final long windowEnd, final long auction, final long bidder, final long price, final long dateTime) {
        return RowHash.of(windowEnd, auction, bidder, price, dateTime);
    }

    /** Q8. */
    public static long newUserRow(final long windowStart, final long person, final String name, final long auction) {
        return RowHash.of(windowStart, person, RowHash.text(name), auction);
    }

    /** Q11: a session from its first bid's time to its last bid's time plus the gap. */
    public static long sessionRow(final long bidder, final long bids, final long start, final long end) {
        return RowHash.of(bidder, bids, start, end);
    }
}
