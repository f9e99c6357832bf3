package io.streamgrid.examples.trading;

import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

/**
 * A seeded stream of trades (accounts, a few symbols each with a random-walk price, sizes up to
 * 500, both sides) and the brute-force oracle of {@link PositionsJob} over it, written apart from the
 * job: plain maps, trades of each account in append order. The demo and the tests check the job
 * against it.
 */
public final class TradeStream {
    /** One trade. */
    public record Trade(String account, long time, String symbol, double price, long quantity, boolean buy, long sequence) {
    }

    private static final String[] SYMBOLS = {"ACME", "GLOBEX", "INITECH", "UMBRELLA", "HOOLI", "STARK", "WAYNE", "TYRELL",
            "CYBERDYNE", "SOYLENT", "MASSIVE", "VANDELAY"};
    /** The stream's first event time: trade i is at {@code START + 3i}, up to 500 ms earlier. */
    public static final long START = 1_767_254_400_000L;
    private final List<Trade> trades = new ArrayList<>();

    public TradeStream(final long seed, final int count, final int accounts) {
        final SplittableRandom random = new SplittableRandom(seed);
        final double[] prices = new double[SYMBOLS.length];
        for (int s = 0; s < prices.length; s++) {
            prices[s] = 20 + random.nextInt(480);
        }
        for (int i = 0; i < count; i++) {
            final int s = random.nextInt(4) == 0 ? random.nextInt(3) : random.nextInt(SYMBOLS.length);
            prices[s] = Math.max(1, Math.round((prices[s] * (1 + (random.nextDouble() - 0.5) / 100)) * 100) / 100.0);
            trades.add(new Trade(String.format("ACC-%05d", random.nextInt(accounts)), START + i * 3L
                    - random.nextInt(500), SYMBOLS[s], prices[s], 1 + random.nextInt(500), random.nextBoolean(), i));
        }
    }

    public List<Trade> trades() {
        return trades;
    }

    public void append(final SchemaLog log, final int from, final int to) {
        final SchemaLayout layout = Trades.TRADE.layout();
        final SchemaRecord record = new SchemaRecord(layout);
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[layout.length()]);
        for (int i = from; i < to; i++) {
            final Trade trade = trades.get(i);
            record.wrapForWrite(buffer, 0).sequence(trade.sequence()).setString(0, trade.account()).setTimestamp(1, trade.time())
                    .setString(2, trade.symbol()).setDouble(3, trade.price()).setLong(4, trade.quantity())
                    .setEnum(5, trade.buy() ? "BUY" : "SELL");
            log.append(record);
        }
    }

    /** What the job must have written: every position, every exposure, every alert. */
    public record Expected(Map<String, Position> positions, Map<String, Exposure> exposures, Map<String, ExposureAlert> alerts) {
    }

    public Expected expected(final double limit) {
        final Map<String, Position> positions = new HashMap<>();
        final Map<String, Exposure> exposures = new HashMap<>();
        final Map<String, ExposureAlert> alerts = new HashMap<>();
        final Map<String, TreeMap<String, double[]>> books = new HashMap<>(); // symbol -> {qty, avg, realised, last, trades}
        final Map<String, int[]> breaches = new HashMap<>(); // {count, over}
        for (final Trade trade : trades) {
            final TreeMap<String, double[]> book = books.computeIfAbsent(trade.account(), a -> new TreeMap<>());
            final double[] p = book.computeIfAbsent(trade.symbol(), s -> new double[5]);
            final long held = (long) p[0];
            final long delta = trade.buy() ? trade.quantity() : -trade.quantity();
            if (held == 0 || (held > 0) == (delta > 0)) {
                p[1] = (Math.abs(held) * p[1] + Math.abs(delta) * trade.price()) / (Math.abs(held) + Math.abs(delta));
            } else {
                final long closing = Math.min(Math.abs(held), Math.abs(delta));
                p[2] += closing * (trade.price() - p[1]) * (held > 0 ? 1 : -1);
                if (Math.abs(delta) > Math.abs(held)) {
                    p[1] = trade.price();
                } else if (Math.abs(delta) == Math.abs(held)) {
                    p[1] = 0;
                }
            }
            p[0] = held + delta;
            p[3] = trade.price();
            p[4]++;
            positions.put(Trades.positionKey(trade.account(), trade.symbol()), new Position(trade.account(), trade.symbol(),
                    (long) p[0], p[1], p[2], p[3], (long) p[4], trade.time()));
            double gross = 0;
            double realised = 0;
            for (final double[] q : book.values()) {
                gross += Math.abs((long) q[0]) * q[3];
                realised += q[2];
            }
            final int[] breach = breaches.computeIfAbsent(trade.account(), a -> new int[2]);
            final boolean over = gross > limit;
            if (over && breach[1] == 0) {
                breach[0]++;
                alerts.put(trade.account() + "|" + breach[0], new ExposureAlert(trade.account(), breach[0], gross, limit, trade.time()));
            }
            breach[1] = over ? 1 : 0;
            exposures.put(trade.account(), new Exposure(trade.account(), gross, realised, over, trade.time()));
        }
        return new Expected(positions, exposures, alerts);
    }

    /** Whether two values are equal up to floating-point summation order (relative 1e-9). */
    public static boolean close(final double a, final double b) {
        return Math.abs(a - b) <= 1e-9 * Math.max(1, Math.max(Math.abs(a), Math.abs(b)));
    }

    /** Keys whose values differ beyond floating-point summation order, with both values; empty when all match. */
    public static List<String> differences(final Expected expected, final Map<String, Position> positions,
                                           final Map<String, Exposure> exposures, final Map<String, ExposureAlert> alerts) {
        final List<String> differences = new ArrayList<>();
        compare(expected.positions(), positions, (a, b) -> a.quantity() == b.quantity() && close(a.averagePrice(), b.averagePrice())
                && close(a.realisedPnl(), b.realisedPnl()) && close(a.lastPrice(), b.lastPrice()) && a.trades() == b.trades()
                && a.updatedAt() == b.updatedAt(),
                differences);
        compare(expected.exposures(), exposures, (a, b) -> close(a.gross(), b.gross()) && close(a.realisedPnl(), b.realisedPnl())
                && a.overLimit() == b.overLimit() && a.updatedAt() == b.updatedAt(), differences);
        compare(expected.alerts(), alerts, (a, b) -> close(a.gross(), b.gross()) && a.at() == b.at(), differences);
        return differences;
    }

    private static <V> void compare(final Map<String, V> expected, final Map<String, V> actual,
                                    final java.util.function.BiPredicate<V, V> same, final List<String> differences) {
        for (final Map.Entry<String, V> entry : expected.entrySet()) {
            final V found = actual.get(entry.getKey());
            if (found == null || !same.test(entry.getValue(), found)) {
                differences.add(entry.getKey() + ": expected " + entry.getValue() + ", found " + found);
            }
        }
        actual.keySet().stream().filter(k -> !expected.containsKey(k)).forEach(k -> differences.add(k + ": unexpected " + actual.get(k)));
    }
}
