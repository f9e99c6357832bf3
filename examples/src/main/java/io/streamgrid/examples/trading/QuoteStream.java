package io.streamgrid.examples.trading;

import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Quotes beside a {@link TradeStream}: for each symbol traded, a quote every 200 ms of the stream's
 * event time around its last trade price (half a cent to five cents either side), appended in step
 * with the trades and, like them, up to 500 ms out of order. Also the brute-force oracle of
 * {@link ExecutionQualityJobs} over both: plain lists, every trade against every quote.
 */
public final class QuoteStream {
    /** One quote. */
    public record Quote(String symbol, long time, double bid, double ask) {
    }

    private static final long EVERY_MS = 200;
    private final TradeStream trades;
    /** Per trade index, the quotes appended just before it. */
    private final List<List<Quote>> before = new ArrayList<>();
    private final List<Quote> quotes = new ArrayList<>();

    public QuoteStream(final TradeStream trades, final long seed) {
        this.trades = trades;
        final SplittableRandom random = new SplittableRandom(seed);
        final Map<String, Double> lastPrice = new HashMap<>();
        long nextQuote = trades.trades().isEmpty() ? 0 : nominalTime(trades.trades().get(0));
        for (final TradeStream.Trade trade : trades.trades()) {
            final List<Quote> now = new ArrayList<>();
            while (nextQuote <= nominalTime(trade)) {
                for (final Map.Entry<String, Double> symbol : lastPrice.entrySet()) {
                    final double halfSpread = (1 + random.nextInt(10)) / 200.0;
                    final Quote quote = new Quote(symbol.getKey(), nextQuote - random.nextInt(500),
                            Math.round((symbol.getValue() - halfSpread) * 1000) / 1000.0, Math.round((symbol.getValue() + halfSpread) * 1000) / 1000.0);
                    now.add(quote);
                    quotes.add(quote);
                }
                nextQuote += EVERY_MS;
            }
            before.add(now);
            lastPrice.put(trade.symbol(), trade.price());
        }
    }

    /** The time a trade would have had in order: its sequence's slot (the stream puts a trade 3 ms after the one before). */
    private static long nominalTime(final TradeStream.Trade trade) {
        return TradeStream.START + trade.sequence() * 3;
    }

    public List<Quote> quotes() {
        return quotes;
    }

    /** Appends the quotes due just before trade {@code trade} to {@code log}; returns how many. */
    public int appendBefore(final SchemaLog log, final int trade) {
        final SchemaRecord record = new SchemaRecord(Quotes.QUOTE.layout());
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[Quotes.QUOTE.layout().length()]);
        for (final Quote quote : before.get(trade)) {
            log.append(record.wrapForWrite(buffer, 0).setString(0, quote.symbol()).setTimestamp(1, quote.time())
                    .setDouble(2, quote.bid()).setDouble(3, quote.ask()));
        }
        return before.get(trade).size();
    }

    /** Per symbol, what {@link Quotes#EXECUTION_QUALITY} must hold: every trade with every quote of the second before it. */
    public Map<String, ExecutionQuality> expected() {
        final Map<String, List<Quote>> bySymbol = new HashMap<>();
        for (final Quote quote : quotes) {
            bySymbol.computeIfAbsent(quote.symbol(), s -> new ArrayList<>()).add(quote);
        }
        bySymbol.values().forEach(list -> list.sort(Comparator.comparingLong(Quote::time)));
        final Map<String, long[]> totals = new HashMap<>();
        for (final TradeStream.Trade trade : trades.trades()) {
            for (final Quote quote : bySymbol.getOrDefault(trade.symbol(), List.of())) {
                final long distance = quote.time() - trade.time();
                if (distance >= -ExecutionQualityJobs.QUOTE_WINDOW_MS && distance <= 0) {
                    final long[] t = totals.computeIfAbsent(trade.symbol(), s -> new long[2]);
                    t[0]++;
                    t[1] += Quotes.slippageCents(trade.price(), trade.quantity(), trade.buy(), quote.bid(), quote.ask());
                }
            }
        }
        final Map<String, ExecutionQuality> expected = new HashMap<>();
        totals.forEach((symbol, t) -> expected.put(symbol, new ExecutionQuality(symbol, t[0], t[1])));
        return expected;
    }
}
