package io.streamgrid.jobs.keyed;

import io.streamgrid.jobs.schema.KeyPartitions;
import io.streamgrid.jobs.Jobs;
import com.hazelcast.jet.Job;
import com.hazelcast.map.IMap;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.pipeline.UnmatchedEvent;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Design of this test: orders are enriched from two dimension maps — instruments by symbol (missing
 * symbol: side output) and account tiers by account (missing: null). Three phases check the
 * documented rule. (1) With the dimensions fixed, every output equals the oracle exactly, and the
 * unmatched side output holds exactly the orders of unknown symbols. (2) While every instrument is
 * rewritten 29 times, orders keep flowing: each output holds a version that existed (its
 * multiplier matches its version, never a mix), and per symbol the versions seen in each
 * partition's log order never go back. (3) Once a probe order per symbol has seen the last version,
 * every later order sees it too.
 */
class LookupJoinTest extends EmbeddedMemberTest {
    static final EventSchema ORDER = EventSchema.builder("order").stringKey("account", 16).eventTime("ts")
            .string("symbol", 12).int64("quantity").build();
    static final String INSTRUMENTS = "dim.instruments";
    static final String TIERS = "dim.account-tiers";
    static final String OUT = "state.enriched-orders";
    private static final int SYMBOLS = 20;
    private static final int LAST_VERSION = 30;

    /** Reference data: the multiplier is derived from the version, so a torn value would show. */
    public record Instrument(String symbol, long version, long multiplier) {
        static Instrument of(final int index, final long version) {
            return new Instrument(LookupJoinTest.symbol(index), version, version * 1_000 + index);
        }
    }

    /** What the job writes per order. */
    public record Enriched(long sequence, String account, String symbol, long version, long multiplier, String tier) {
    }

    static String symbol(final int index) {
        return String.format("S%02d", index);
    }

    static final class Enrich implements KeyedFunction<long[]> {
        @Override
        public void onEvent(final SchemaRecord order, final KeyedContext<long[]> context) {
            final Instrument instrument = context.lookup(INSTRUMENTS);
            final String tier = context.lookup(TIERS);
            context.put(OUT, order.sequence(), new Enriched(order.sequence(), context.stringKey(), instrument.symbol(),
                    instrument.version(), instrument.multiplier(), tier));
        }
    }

    private final UnsafeBuffer buffer = new UnsafeBuffer(new byte[128]);
    private final SchemaLayout layout = ORDER.layout();
    private long sequence;

    private long append(final SchemaLog log, final String account, final String symbol) {
        final SchemaRecord record = new SchemaRecord(layout).wrapForWrite(buffer, 0).sequence(sequence);
        record.setString(0, account).setTimestamp(1, 1_000_000 + sequence).setString(2, symbol).setLong(3, 1);
        log.append(record);
        return sequence++;
    }

    @Test
    void when_dimensionsChangeWhileOrdersFlow_then_everyOutputFollowsTheDocumentedRule() {
        startMember();
        final IMap<String, Instrument> instruments = member.getMap(INSTRUMENTS);
        final IMap<String, String> tiers = member.getMap(TIERS);
        for (int i = 0; i < SYMBOLS; i++) {
            instruments.put(symbol(i), Instrument.of(i, 1));
        }
        for (int a = 0; a < 50; a += 2) {
            tiers.put("acct-" + a, a % 4 == 0 ? "gold" : "silver");
        }
        final KeyedJob<long[]> job = KeyedJob.<long[]>builder("enrich", ORDER).function(new Enrich()).state(StateCodec.longs(1))
                .lookup(INSTRUMENTS, "symbol", Lookup.OnMissing.SIDE_OUTPUT).lookup(TIERS, "account", Lookup.OnMissing.NULL)
                .writes(OUT).build();
        final JobOptions options = JobOptions.of(dir).withSnapshotInterval(200).withLocalParallelism(2);
        final SplittableRandom random = new SplittableRandom(9);
        final IMap<Long, Enriched> out = member.getMap(OUT);
        final IMap<String, UnmatchedEvent> unmatched = member.getMap(job.unmatchedMap());
        try (SchemaLog log = SchemaLog.open(Jobs.logDirectory(job, options), ORDER, 4)) {
            final Job running = Jobs.submit(member.getJet(), job, options);

            // Phase 1: fixed dimensions.
            final Map<Long, String> unknown = new HashMap<>();
            for (int i = 0; i < 2_000; i++) {
                final String account = "acct-" + random.nextInt(50);
                final boolean known = random.nextInt(50) != 0;
                final long seq = append(log, account, known ? symbol(random.nextInt(SYMBOLS)) : "NOPE");
                if (!known) {
                    unknown.put(seq, account);
                }
            }
            await().atMost(Duration.ofMinutes(1)).until(() -> out.size() + unmatched.size() == 2_000);
            for (final Enriched e : out.values()) {
                final int a = Integer.parseInt(e.account().substring(5));
                assertThat(e.version()).isEqualTo(1);
                assertThat(e.multiplier()).isEqualTo(1_000 + Integer.parseInt(e.symbol().substring(1)));
                assertThat(e.tier()).as(e.account()).isEqualTo(a % 2 == 1 ? null : a % 4 == 0 ? "gold" : "silver");
            }
            assertThat(unmatched.values().stream().collect(Collectors.toMap(UnmatchedEvent::sequence, UnmatchedEvent::key)))
                    .isEqualTo(unknown);
            assertThat(unmatched.values()).allSatisfy(u -> assertThat(u.lookupKey()).isEqualTo("NOPE"));

            // Phase 2: every instrument rewritten while orders flow.
            final long phase2From = sequence;
            final Thread updater = new Thread(() -> {
                for (long v = 2; v <= LAST_VERSION; v++) {
                    for (int i = 0; i < SYMBOLS; i++) {
                        instruments.put(symbol(i), Instrument.of(i, v));
                    }
                }
            });
            updater.start();
            while (updater.isAlive() || sequence < phase2From + 5_000) {
                append(log, "acct-" + random.nextInt(50), symbol(random.nextInt(SYMBOLS)));
            }
            final long phase2To = sequence;
            await().atMost(Duration.ofMinutes(1)).until(() -> out.size() + unmatched.size() == phase2To);
            final Map<Integer, List<Enriched>> byPartition = new HashMap<>();
            for (long s = phase2From; s < phase2To; s++) {
                final Enriched e = out.get(s);
                assertThat(e.version()).isBetween(1L, (long) LAST_VERSION);
                assertThat(e.multiplier()).as("a version that existed").isEqualTo(e.version() * 1_000 + Integer.parseInt(e.symbol().substring(1)));
                byPartition.computeIfAbsent(partitionOf(e.account()), p -> new ArrayList<>()).add(e);
            }
            int regressions = 0;
            for (final List<Enriched> inLogOrder : byPartition.values()) {
                inLogOrder.sort(Comparator.comparingLong(Enriched::sequence));
                final Map<String, Long> seen = new HashMap<>();
                for (final Enriched e : inLogOrder) {
                    if (e.version() < seen.getOrDefault(e.symbol(), 0L)) {
                        regressions++;
                    }
                    seen.merge(e.symbol(), e.version(), Math::max);
                }
            }
            final long versionsSeen = out.values().stream().filter(e -> e.sequence() >= phase2From).map(Enriched::version).distinct().count();
            System.out.println((phase2To - phase2From) + " orders while the dimension changed saw " + versionsSeen
                    + " distinct versions, " + regressions + " went back");
            assertThat(regressions).isZero();

            // Phase 3: once a probe per symbol saw the last version, all later orders do.
            for (int i = 0; i < SYMBOLS; i++) {
                final int index = i;
                await().atMost(Duration.ofSeconds(30)).pollInSameThread().until(() -> { // appends: the log's appender is single-threaded
                    final long probe = append(log, "probe", symbol(index));
                    await().atMost(Duration.ofSeconds(10)).until(() -> out.containsKey(probe));
                    return out.get(probe).version() == LAST_VERSION;
                });
            }
            final long phase3From = sequence;
            for (int i = 0; i < 2_000; i++) {
                append(log, "probe", symbol(random.nextInt(SYMBOLS)));
            }
            await().atMost(Duration.ofMinutes(1)).until(() -> out.size() + unmatched.size() == sequence);
            for (long s = phase3From; s < sequence; s++) {
                assertThat(out.get(s).version()).isEqualTo(LAST_VERSION);
            }
            running.cancel();
        }
    }

    private int partitionOf(final String account) {
        final SchemaRecord record = new SchemaRecord(layout).wrapForWrite(new UnsafeBuffer(new byte[128]), 0);
        record.setString(0, account);
        return KeyPartitions.partitionOf(record, 4);
    }
}
