package io.streamgrid.nexmark;

import java.util.SplittableRandom;

/**
 * NEXMark's auction site as a deterministic function of the event number: event {@code n} is the
 * same person, auction or bid in every process that asks for it with the same seed and rate, so
 * each engine of a benchmark can generate its own input (or any slice of it) and all compute over
 * the same events.
 *
 * <p>The stream, as the NEXMark specification describes it: in every 50 events, 1 person, 3
 * auctions and 46 bids, in that order; person and auction ids count up from 1000. Sellers and
 * bidders are mostly the <em>hot</em> people (3 in 4 auctions are opened by the newest person
 * rounded down to a multiple of 4, 3 in 4 bids are made by that person + 1), the rest recently
 * joined people (one of the last 1,000); half the bids go to the hot auction (the newest rounded
 * down to even), the rest to one of the last 100 opened. Auctions stay open about as long as it
 * takes to open 100 more; prices are log-uniform from $1 to $1,000,000; categories 10 to 14;
 * states among six western ones. Event time moves at {@code eventsPerSecond} from
 * {@code baseTimeMs}, in event order.
 *
 * <p>Each event draws its random values from its own generator seeded by (seed, n), so no event
 * depends on generating another. Immutable and thread-safe.
 */
public final class NexmarkGenerator {
    public static final long FIRST_PERSON_ID = 1000;
    public static final long FIRST_AUCTION_ID = 1000;
    public static final long FIRST_CATEGORY_ID = 10;
    public static final int CATEGORIES = 5;
    /** Events per cycle, and the persons, auctions and bids in each (in that order). */
    public static final int CYCLE = 50;
    public static final int PERSONS_PER_CYCLE = 1;
    public static final int AUCTIONS_PER_CYCLE = 3;
    public static final int BIDS_PER_CYCLE = 46;
    static final int HOT_AUCTION_RATIO = 2;
    static final int HOT_SELLER_RATIO = 4;
    static final int HOT_BIDDER_RATIO = 4;
    static final int ACTIVE_PEOPLE = 1_000;
    static final int AUCTIONS_IN_FLIGHT = 100;
    /** The six states persons live in (Q3 selects three of them). */
    public static final String[] STATES = {"AZ", "CA", "ID", "OR", "WA", "WY"};
    private static final String[] CITIES = {"Phoenix", "Tucson", "Los Angeles", "San Francisco", "Boise", "Pocatello", "Portland",
            "Bend", "Seattle", "Spokane", "Cheyenne", "Laramie"};
    private static final String[] FIRST_NAMES = {"Ada", "Bruno", "Chiara", "Dmitri", "Elif", "Farah", "Goran", "Hana", "Ines",
            "Jonas", "Keiko", "Luis", "Maren", "Nikhil", "Olga", "Pavel"};
    private static final String[] LAST_NAMES = {"Abbott", "Berg", "Castillo", "Dahl", "Eze", "Fischer", "Gupta", "Horvat", "Ivanova",
            "Jensen", "Kowalski", "Lindqvist", "Moreau", "Nakamura", "Okafor", "Petrov"};
    private static final String[] CHANNELS = {"Google", "Facebook", "Baidu", "Apple"};
    private static final char[] LETTERS = "abcdefghijklmnopqrstuvwxyz".toCharArray();
    private static final char[] DIGITS = "0123456789".toCharArray();

    private final long seed;
    private final long eventsPerSecond;
    private final long baseTimeMs;
    private final int extraScale;

    /**
     * @param eventsPerSecond event-time density (the event time of {@code n} is {@code baseTimeMs + n × 1000 / eventsPerSecond})
     * @param extraScale      percent of NEXMark's padding per event (100: persons about 200 bytes,
     *                        auctions 500, bids 100; 0: none)
     */
    public NexmarkGenerator(final long seed, final long eventsPerSecond, final long baseTimeMs, final int extraScale) {
        if (eventsPerSecond < 1) {
            throw new IllegalArgumentException("events per second must be at least 1, was " + eventsPerSecond);
        }
        if (extraScale < 0) {
            throw new IllegalArgumentException("the padding scale must not be negative, was " + extraScale);
        }
        this.seed = seed;
        this.eventsPerSecond = eventsPerSecond;
        this.baseTimeMs = baseTimeMs;
        this.extraScale = extraScale;
    }

    /** Event time of event {@code n}, epoch milliseconds. */
    public long timeOf(final long n) {
        return baseTimeMs + Math.multiplyExact(n, 1000L) / eventsPerSecond;
    }

    /**
     * The longest any auction is open ({@code expires − date_time}), at most: about twice the time
     * it takes to open {@code AUCTIONS_IN_FLIGHT} more auctions at this rate, plus rounding.
     */
    public long longestAuctionMs() {
        final long auctionsInFlightEvents = (long) AUCTIONS_IN_FLIGHT * CYCLE / AUCTIONS_PER_CYCLE;
        return 2 * (Math.multiplyExact(auctionsInFlightEvents, 1000L) / eventsPerSecond + 1);
    }

    // ---- counting: which event is the i-th person, auction, bid, and how many came up to n ----

    /** The event number of the {@code index}-th person (0-based). */
    public static long eventOfPerson(final long index) {
        return index * CYCLE;
    }

    /** The event number of the {@code index}-th auction. */
    public static long eventOfAuction(final long index) {
        return index / AUCTIONS_PER_CYCLE * CYCLE + PERSONS_PER_CYCLE + index % AUCTIONS_PER_CYCLE;
    }

    /** The event number of the {@code index}-th bid. */
    public static long eventOfBid(final long index) {
        return index / BIDS_PER_CYCLE * CYCLE + PERSONS_PER_CYCLE + AUCTIONS_PER_CYCLE + index % BIDS_PER_CYCLE;
    }

    /** Persons among events {@code 0 .. n-1}. */
    public static long personsBefore(final long n) {
        return n / CYCLE * PERSONS_PER_CYCLE + Math.min(n % CYCLE, PERSONS_PER_CYCLE);
    }

    /** Auctions among events {@code 0 .. n-1}. */
    public static long auctionsBefore(final long n) {
        return n / CYCLE * AUCTIONS_PER_CYCLE + Math.max(0, Math.min(n % CYCLE - PERSONS_PER_CYCLE, AUCTIONS_PER_CYCLE));
    }

    /** Bids among events {@code 0 .. n-1}. */
    public static long bidsBefore(final long n) {
        return n / CYCLE * BIDS_PER_CYCLE + Math.max(0, n % CYCLE - PERSONS_PER_CYCLE - AUCTIONS_PER_CYCLE);
    }

    // ---- the events ----

    /** Event {@code n}: a {@link Person}, an {@link Auction} or a {@link Bid}. */
    public Object event(final long n) {
        final long offset = n % CYCLE;
        if (offset < PERSONS_PER_CYCLE) {
            return person(personsBefore(n));
        }
        if (offset < PERSONS_PER_CYCLE + AUCTIONS_PER_CYCLE) {
            return auction(auctionsBefore(n));
        }
        return bid(bidsBefore(n));
    }

    /** The {@code index}-th person (id {@code FIRST_PERSON_ID + index}). */
    public Person person(final long index) {
        final long n = eventOfPerson(index);
        final SplittableRandom random = randomOf(n);
        final String first = FIRST_NAMES[random.nextInt(FIRST_NAMES.length)];
        final String last = LAST_NAMES[random.nextInt(LAST_NAMES.length)];
        final String email = word(random, 4, 8) + "@" + word(random, 4, 8) + ".com";
        final String card = digits(random, 4) + " " + digits(random, 4) + " " + digits(random, 4) + " " + digits(random, 4);
        final int place = random.nextInt(CITIES.length);
        return new Person(FIRST_PERSON_ID + index, first + " " + last, email, card, CITIES[place], STATES[place / 2], timeOf(n),
                extra(random, 110));
    }

    /** The {@code index}-th auction (id {@code FIRST_AUCTION_ID + index}). */
    public Auction auction(final long index) {
        final long n = eventOfAuction(index);
        final SplittableRandom random = randomOf(n);
        final long newestPerson = personsBefore(n) - 1;
        final long seller = random.nextInt(HOT_SELLER_RATIO) > 0
                ? newestPerson / HOT_SELLER_RATIO * HOT_SELLER_RATIO
                : recent(random, newestPerson, ACTIVE_PEOPLE);
        final long initialBid = price(random);
        final long reserve = initialBid + price(random);
        final long time = timeOf(n);
        // Open about as long as it takes to open AUCTIONS_IN_FLIGHT more auctions (uniform over twice that).
        final long horizonMs = timeOf(n + (long) AUCTIONS_IN_FLIGHT * CYCLE / AUCTIONS_PER_CYCLE) - time;
        final long expires = time + 1 + random.nextLong(Math.max(2 * horizonMs, 1));
        return new Auction(FIRST_AUCTION_ID + index, word(random, 6, 14), word(random, 20, 60), initialBid, reserve, time, expires,
                FIRST_PERSON_ID + seller, FIRST_CATEGORY_ID + random.nextInt(CATEGORIES), extra(random, 370));
    }

    /** The {@code index}-th bid. */
    public Bid bid(final long index) {
        final long n = eventOfBid(index);
        final SplittableRandom random = randomOf(n);
        final long newestAuction = auctionsBefore(n) - 1;
        final long auction = random.nextInt(HOT_AUCTION_RATIO) > 0
                ? newestAuction / HOT_AUCTION_RATIO * HOT_AUCTION_RATIO
                : recent(random, newestAuction, AUCTIONS_IN_FLIGHT);
        final long newestPerson = personsBefore(n) - 1;
        final long bidder = random.nextInt(HOT_BIDDER_RATIO) > 0
                ? Math.min(newestPerson, newestPerson / HOT_BIDDER_RATIO * HOT_BIDDER_RATIO + 1)
                : recent(random, newestPerson, ACTIVE_PEOPLE);
        final int channel = random.nextInt(CHANNELS.length + 1);
        final String channelName = channel < CHANNELS.length ? CHANNELS[channel] : "channel-" + random.nextInt(10_000);
        final String url = "https://www.nexmark.com/" + word(random, 4, 8) + "/item.htm?query=" + random.nextInt(100);
        return new Bid(FIRST_AUCTION_ID + auction, FIRST_PERSON_ID + bidder, price(random), channelName, url, timeOf(n),
                extra(random, 20));
    }

    private SplittableRandom randomOf(final long n) {
        return new SplittableRandom(mix(seed + 0x9E37_79B9_7F4A_7C15L * (n + 1)));
    }

    /** One of the {@code window} newest of {@code 0 .. newest}. */
    private static long recent(final SplittableRandom random, final long newest, final int window) {
        return newest - random.nextLong(Math.min(window, newest + 1));
    }

    /** Log-uniform from 100 to 100,000,000 cents. */
    private static long price(final SplittableRandom random) {
        return Math.round(Math.pow(10.0, random.nextDouble() * 6.0) * 100.0);
    }

    private String extra(final SplittableRandom random, final int averageLength) {
        final int average = averageLength * extraScale / 100;
        return average == 0 ? "" : word(random, average / 2, average * 3 / 2);
    }

    private static String word(final SplittableRandom random, final int min, final int max) {
        return draw(random, LETTERS, min + random.nextInt(max - min + 1));
    }

    private static String digits(final SplittableRandom random, final int count) {
        return draw(random, DIGITS, count);
    }

    /** {@code length} characters drawn from {@code alphabet}. */
    private static String draw(final SplittableRandom random, final char[] alphabet, final int length) {
        final char[] chars = new char[length];
        for (int i = 0; i < length; i++) {
            chars[i] = alphabet[random.nextInt(alphabet.length)];
        }
        return new String(chars);
    }

    /** A 64-bit finalizer: nearby inputs give unrelated outputs. */
    static long mix(final long value) {
        long z = value;
        z = (z ^ (z >>> 33)) * 0xFF51_AFD7_ED55_8CCDL;
        z = (z ^ (z >>> 33)) * 0xC4CE_B9FE_1A85_EC53L;
        return z ^ (z >>> 33);
    }
}
