package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.Field;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Design of these tests: 10,000 trades are written as JSON lines and as CSV, about 1 % of the lines
 * replaced by malformed ones of eight kinds. Every malformed line must be in the rejected file with
 * its line number and the reason; every other line must be in the log, each field as written.
 */
class SchemaLoaderTest {
    private static final EventSchema TRADE = EventSchema.builder("trade").stringKey("account", 12).eventTime("ts")
            .string("symbol", 8).float64("price").int64("quantity").int32("venue").bool("aggressive")
            .enumOf("side", "BUY", "SELL").field(Field.string("desk", 6).withDefault("main")).build();

    @TempDir
    Path dir;

    /** A malformed line of each kind, as JSON and CSV, with the reason the rejected file must give. */
    private record Bad(String json, String csv, String reason) {
    }

    private static final List<Bad> BAD = List.of(
            new Bad("{\"account\":\"a1\",\"ts\":5,\"symbol\":\"X\",\"price\":1.0,\"quantity\":1,\"venue\":1,\"aggressive\":true}",
                    "a1,5,X,1.0,1,1,true,,", "missing field 'side'"),
            new Bad("{\"account\":\"a1\",\"ts\":5,\"symbol\":\"X\",\"price\":\"abc\",\"quantity\":1,\"venue\":1,\"aggressive\":true,\"side\":\"BUY\"}",
                    "a1,5,X,abc,1,1,true,BUY,", "'price' must be a finite number"),
            new Bad("{\"account\":\"a1\",\"ts\":5,\"symbol\":\"X\",\"price\":1.0,\"quantity\":1,\"venue\":1,\"aggressive\":true,\"side\":\"HOLD\"}",
                    "a1,5,X,1.0,1,1,true,HOLD,", "field side needs one of [BUY, SELL]"),
            new Bad("{\"account\":\"a1\",\"ts\":5,\"symbol\":\"TOOLONGSYM\",\"price\":1.0,\"quantity\":1,\"venue\":1,\"aggressive\":true,\"side\":\"BUY\"}",
                    "a1,5,TOOLONGSYM,1.0,1,1,true,BUY,", "field symbol is 10 bytes long in UTF-8, at most 8 allowed"),
            new Bad("{\"account\":\"a1\",\"ts\":-5,\"symbol\":\"X\",\"price\":1.0,\"quantity\":1,\"venue\":1,\"aggressive\":true,\"side\":\"BUY\"}",
                    "a1,-5,X,1.0,1,1,true,BUY,", "'ts' is negative: -5"),
            new Bad("{\"account\":\"a1\",\"ts\":5,\"symbol\":\"X\",\"price\":1.0,\"quantity\":1,\"venue\":9999999999,\"aggressive\":true,\"side\":\"BUY\"}",
                    "a1,5,X,1.0,1,9999999999,true,BUY,", "'venue' is 9999999999, outside the int range"),
            new Bad("{\"account\":\"a1\",\"ts\":5,\"symbol\":\"X\",\"price\":1.0,\"quantity\":1,\"venue\":1,\"aggressive\":\"maybe\",\"side\":\"BUY\"}",
                    "a1,5,X,1.0,1,1,maybe,BUY,", "'aggressive' must be true or false"),
            new Bad("{\"account\":\"a1\",\"ts\":5,\"symbol\":\"X\",\"price\":1.0,\"quantity\":1,\"venue\":1,\"aggressive\":true,\"side\":\"BUY\",\"colour\":\"red\"}",
                    "a1,5,X,1.0,1,1,true,\"BUY,", "unterminated quote"));

    private record Trade(String account, long ts, String symbol, double price, long quantity, int venue, boolean aggressive,
                         String side, String desk) {
        String json() {
            return "{\"account\":\"" + account + "\",\"ts\":" + ts + ",\"symbol\":\"" + symbol.replace("\"", "\\\"") + "\",\"price\":" + price
                    + ",\"quantity\":" + quantity + ",\"venue\":" + venue + ",\"aggressive\":" + aggressive + ",\"side\":\"" + side + "\""
                    + (desk.equals("main") ? "" : ",\"desk\":\"" + desk + "\"") + "}";
        }

        String csv() {
            return account + "," + java.time.Instant.ofEpochMilli(ts) + ",\"" + symbol.replace("\"", "\"\"") + "\"," + price + ","
                    + quantity + "," + venue + "," + aggressive + "," + side + "," + (desk.equals("main") ? "" : desk);
        }
    }

    private static Trade trade(final SplittableRandom random, final int i) {
        return new Trade("acct-" + random.nextInt(50), 1_767_225_600_000L + i, i % 7 == 0 ? "B,\"Q\"" : "SYM" + random.nextInt(99),
                Math.round(random.nextDouble() * 10_000) / 100.0, random.nextLong(-1_000, 1_000), random.nextInt(5),
                random.nextBoolean(), random.nextBoolean() ? "BUY" : "SELL", random.nextInt(3) == 0 ? "fx" : "main");
    }

    private void loadsAllButTheMalformed(final SchemaLoader.Format format) throws IOException {
        final SplittableRandom random = new SplittableRandom(3);
        final List<String> lines = new ArrayList<>();
        final TreeMap<Long, String> badReasonByLine = new TreeMap<>();
        final List<Trade> good = new ArrayList<>();
        if (format == SchemaLoader.Format.CSV) {
            lines.add("account,ts,symbol,price,quantity,venue,aggressive,side,desk");
        }
        for (int i = 0; i < 10_000; i++) {
            if (random.nextInt(100) == 0) {
                final Bad bad = BAD.get(badReasonByLine.size() % BAD.size());
                lines.add(format == SchemaLoader.Format.CSV ? bad.csv() : bad.json());
                badReasonByLine.put((long) lines.size(), format == SchemaLoader.Format.JSON && bad.reason().equals("unterminated quote")
                        ? "unknown field 'colour'" : bad.reason());
            } else {
                final Trade trade = trade(random, i);
                good.add(trade);
                lines.add(format == SchemaLoader.Format.CSV ? trade.csv() : trade.json());
            }
        }
        final Path input = dir.resolve(format == SchemaLoader.Format.CSV ? "trades.csv" : "trades.jsonl");
        Files.write(input, lines);
        final Path rejected = dir.resolve("rejected.txt");

        final LoadReport report;
        try (SchemaLog log = SchemaLog.open(dir.resolve("log"), TRADE, 3)) {
            report = new SchemaLoader(TRADE).load(input, SchemaLoader.Format.of(input), log, rejected, line -> { });
            assertThat(readAll(log)).containsExactlyInAnyOrderElementsOf(good);
        }

        assertThat(badReasonByLine).hasSizeGreaterThanOrEqualTo(BAD.size());
        assertThat(report.loaded()).isEqualTo(good.size());
        assertThat(report.rejected()).isEqualTo(badReasonByLine.size());
        final List<String> rejectedLines = Files.readAllLines(rejected);
        assertThat(rejectedLines).hasSize(badReasonByLine.size());
        int i = 0;
        for (final Map.Entry<Long, String> bad : badReasonByLine.entrySet()) {
            assertThat(rejectedLines.get(i++)).startsWith("line " + bad.getKey() + ": ").contains(bad.getValue());
        }
    }

    private static List<Trade> readAll(final SchemaLog log) {
        final SchemaLayout layout = TRADE.layout();
        final SchemaRecord record = new SchemaRecord(layout);
        final List<Trade> trades = new ArrayList<>();
        for (int p = 0; p < log.partitions(); p++) {
            try (PartitionReader reader = log.reader(p, PartitionReader.START)) {
                int length;
                while ((length = reader.next()) >= 0) {
                    record.wrap(reader.buffer(), 0, length);
                    assertThat(record.validate()).isNull();
                    trades.add(new Trade(record.getString(0), record.eventTime(), record.getString(2), record.getDouble(3),
                            record.getLong(4), record.getInt(5), record.getBoolean(6), record.getEnum(7), record.getString(8)));
                }
            }
        }
        return trades;
    }

    @Test
    void when_jsonLinesWithMalformedLinesLoaded_then_eachMalformedLineRejectedWithNumberAndReasonAndTheRestLoaded() throws IOException {
        loadsAllButTheMalformed(SchemaLoader.Format.JSON);
    }

    @Test
    void when_csvWithMalformedLinesLoaded_then_eachMalformedLineRejectedWithNumberAndReasonAndTheRestLoaded() throws IOException {
        loadsAllButTheMalformed(SchemaLoader.Format.CSV);
    }

    @Test
    void when_csvHeaderNamesAnUnknownColumn_then_theLoadStopsBeforeAppending() throws IOException {
        final Path input = dir.resolve("bad-header.csv");
        Files.write(input, List.of("account,ts,colour", "a,5,red"));
        try (SchemaLog log = SchemaLog.open(dir.resolve("log"), TRADE, 1)) {
            assertThatThrownBy(() -> new SchemaLoader(TRADE).load(input, SchemaLoader.Format.CSV, log, dir.resolve("r"), l -> { }))
                    .hasMessageContaining("CSV column 'colour' is not a field of schema trade");
            assertThat(readAll(log)).isEmpty();
        }
    }
}
