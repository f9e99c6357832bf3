package io.streamgrid.jobs.keyed;

import com.hazelcast.jet.Job;
import com.hazelcast.map.IMap;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.pipeline.Replay;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.schema.TypedField;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Lookups as of event time against latest-known ones, with the dimension changing during the run:
 * a replay of the versioned lookup reproduces the live results, a replay of the latest-known one
 * recomputes history with today's values — and a version written after its events were processed
 * (backdated) reaches them in a replay only, as documented.
 */
class VersionedLookupTest extends EmbeddedMemberTest {
    static final EventSchema PAYMENT = EventSchema.builder("payment").longKey("account").eventTime("ts").string("currency", 3)
            .int64("cents").build();
    static final TypedField.LongField CENTS = PAYMENT.longField("cents");
    /** Versions: "EUR@validFromMs" -> micro-dollars per unit. */
    static final String RATES = "dim.fx-rates";
    /** The same rates, the latest only: "EUR" -> micro-dollars per unit. */
    static final String LATEST_RATES = "dim.fx-latest";
    static final String[] CURRENCIES = {"EUR", "GBP", "JPY"};
    static final long START = 1_767_225_600_000L;
    static final int PHASE = 2_000;

    /** Each payment's value in US cents, by its sequence. */
    static final class ToDollars implements KeyedFunction<Void> {
        private final String rates;
        private final String out;

        ToDollars(final String rates, final String out) {
            this.rates = rates;
            this.out = out;
        }

        @Override
        public void onEvent(final SchemaRecord payment, final KeyedContext<Void> context) {
            final Long microDollars = context.lookup(rates);
            context.put(out, payment.sequence(), payment.get(CENTS) * microDollars / 1_000_000);
        }
    }

    private static KeyedJob<Void> job(final String name, final String out, final boolean asOfEventTime) {
        final KeyedJob.Builder<Void> builder = KeyedJob.<Void>builder(name, PAYMENT).function(new ToDollars(
                asOfEventTime ? RATES : LATEST_RATES, out)).state(StateCodec.none()).writes(out);
        return (asOfEventTime ? builder.lookupAsOfEventTime(RATES, "currency", Lookup.OnMissing.SIDE_OUTPUT)
                : builder.lookup(LATEST_RATES, "currency", Lookup.OnMissing.SIDE_OUTPUT)).build();
    }

    private static long rate(final int phase, final int currency) {
        return (currency + 1) * 700_000L + phase * 50_000L;
    }

    /**
     * Design of this test: 6,000 payments in three phases of event time; before each phase new rates
     * are written — as versions valid from the phase's first event, and as the latest values — and
     * each phase is appended once the jobs have handled the one before. Both jobs' live results equal
     * the oracle. A replay of the versioned job equals its live results; a replay of the latest-known
     * one prices every payment at the last rates. Then a EUR version valid from the middle of phase 1
     * is written late: a second replay of the versioned job prices that half-phase's EUR payments with
     * it, and nothing else differs.
     */
    @Test
    void when_theDimensionChangesDuringTheRun_then_aReplayOfTheVersionedLookupReproducesTheLiveResults() throws Exception {
        final Random random = new Random(3);
        final List<long[]> payments = new ArrayList<>(); // {time, currency, cents}
        startMember();
        final IMap<String, Long> versions = member.getMap(RATES);
        final IMap<String, Long> latest = member.getMap(LATEST_RATES);
        final KeyedJob<Void> versioned = job("usd-as-of", "state.usd-as-of", true);
        final KeyedJob<Void> latestKnown = job("usd-latest", "state.usd-latest", false);
        final JobOptions options = JobOptions.of(dir).withSnapshotInterval(200);
        try (SchemaLog log = SchemaLog.open(SchemaLog.directoryOf(dir, PAYMENT.name()), PAYMENT, 2)) {
            final Job liveVersioned = Jobs.submit(member.getJet(), versioned, options);
            final Job liveLatest = Jobs.submit(member.getJet(), latestKnown, options);
            final SchemaRecord record = new SchemaRecord(PAYMENT.layout());
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[PAYMENT.layout().length()]);
            for (int phase = 0; phase < 3; phase++) {
                final long phaseStart = START + phase * PHASE * 10L;
                for (int c = 0; c < CURRENCIES.length; c++) {
                    versions.set(Lookup.versionKey(CURRENCIES[c], phaseStart), rate(phase, c));
                    latest.set(CURRENCIES[c], rate(phase, c));
                }
                Thread.sleep(500); // the replicas' entry events are asynchronous: the latest-known lookup needs them in
                for (int i = phase * PHASE; i < (phase + 1) * PHASE; i++) {
                    final long[] p = {START + i * 10L, random.nextInt(CURRENCIES.length), 1 + random.nextInt(100_000)};
                    payments.add(p);
                    log.append(record.wrapForWrite(buffer, 0).sequence(i).setLong(0, random.nextInt(50)).setTimestamp(1, p[0])
                            .setString(2, CURRENCIES[(int) p[1]]).setLong(3, p[2]));
                }
                final int handled = (phase + 1) * PHASE;
                await().atMost(Duration.ofMinutes(1)).until(() -> member.getMap(versioned.stateMaps().get(0)).size() == handled
                        && member.getMap(latestKnown.stateMaps().get(0)).size() == handled);
            }
            final Map<Long, Long> live = oracle(payments, Long.MAX_VALUE, -1);
            JobTestSupport.awaitEqual(live, () -> Map.copyOf(member.<Long, Long>getMap("state.usd-as-of")), Duration.ofMinutes(1),
                    liveVersioned);
            JobTestSupport.awaitEqual(live, () -> Map.copyOf(member.<Long, Long>getMap("state.usd-latest")), Duration.ofMinutes(1),
                    liveLatest);

            final Replay again = Replay.into("again");
            final Job replayVersioned = Jobs.submit(member.getJet(), versioned, options.withReplay(again));
            final Job replayLatest = Jobs.submit(member.getJet(), latestKnown, options.withReplay(again));
            JobTestSupport.awaitEqual(live, () -> Map.copyOf(member.<Long, Long>getMap(again.mapName("state.usd-as-of"))),
                    Duration.ofMinutes(1), replayVersioned);
            final Map<Long, Long> atTodaysRates = oracle(payments, START, -1);
            JobTestSupport.awaitEqual(atTodaysRates, () -> Map.copyOf(member.<Long, Long>getMap(again.mapName("state.usd-latest"))),
                    Duration.ofMinutes(1), replayLatest);
            final long differing = live.keySet().stream().filter(k -> !live.get(k).equals(atTodaysRates.get(k))).count();
            System.out.println(payments.size() + " payments: the versioned lookup's replay equals its live results; the "
                    + "latest-known lookup's replay prices " + differing + " of them differently from its live run");
            assertThat(differing).as("payments of the first two phases priced at today's rates").isGreaterThan(3_000);

            final long backdatedFrom = START + (PHASE + PHASE / 2) * 10L;
            versions.set(Lookup.versionKey("EUR", backdatedFrom), 2_000_000L);
            Thread.sleep(500);
            final Replay late = Replay.into("after_backdating");
            final Job replayAfter = Jobs.submit(member.getJet(), versioned, options.withReplay(late));
            final Map<Long, Long> withBackdated = oracle(payments, Long.MAX_VALUE, backdatedFrom);
            JobTestSupport.awaitEqual(withBackdated, () -> Map.copyOf(member.<Long, Long>getMap(late.mapName("state.usd-as-of"))),
                    Duration.ofMinutes(1), replayAfter);
            assertThat(Map.copyOf(member.<Long, Long>getMap("state.usd-as-of"))).as("the live results, untouched").isEqualTo(live);
            assertThat(withBackdated).as("the backdated version reprices some EUR payments").isNotEqualTo(live);
            assertThat(member.getMap(versioned.unmatchedMap()).size()).isZero();
            for (final Job job : List.of(liveVersioned, liveLatest, replayVersioned, replayLatest, replayAfter)) {
                job.cancel();
            }
        }
    }

    /**
     * Each payment in US cents at the rates of its phase — or, for payments before {@code pricedAtLastFrom}
     * (Long.MAX_VALUE: none), at the last phase's; EUR payments from {@code backdatedFrom} (-1: none) to
     * the next phase at the backdated rate.
     */
    private static Map<Long, Long> oracle(final List<long[]> payments, final long pricedAtLastFrom, final long backdatedFrom) {
        final Map<Long, Long> expected = new HashMap<>();
        for (int i = 0; i < payments.size(); i++) {
            final long[] p = payments.get(i);
            final int phase = p[0] >= pricedAtLastFrom ? 2 : i / PHASE;
            long microDollars = rate(phase, (int) p[1]);
            if (backdatedFrom >= 0 && p[1] == 0 && p[0] >= backdatedFrom && i / PHASE == 1) {
                microDollars = 2_000_000L;
            }
            expected.put((long) i, p[2] * microDollars / 1_000_000);
        }
        return expected;
    }
}
