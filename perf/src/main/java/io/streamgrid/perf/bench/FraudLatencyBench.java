package io.streamgrid.perf.bench;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.config.JobConfig;
import com.hazelcast.jet.config.ProcessingGuarantee;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.client.StreamGridClient;
import io.streamgrid.examples.fraud.Features;
import io.streamgrid.examples.fraud.FraudScore;
import io.streamgrid.examples.fraud.FraudScoringJob;
import io.streamgrid.examples.fraud.ModelVersion;
import io.streamgrid.examples.fraud.Payments;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.perf.BenchContext;
import io.streamgrid.perf.Benchmark;
import io.streamgrid.perf.report.BenchResult;
import io.streamgrid.perf.report.Environment;
import io.streamgrid.perf.report.LatencyProfile;
import io.streamgrid.perf.report.Ratio;
import org.agrona.concurrent.UnsafeBuffer;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.IntConsumer;

/**
 * Payment → score written, at 10,000 and 50,000 payments/s: the fraud example's scoring job against
 * the plain Jet reference of the {@code fraud-scoring} benchmark, each observed by an entry listener
 * of a client on its scores map.
 *
 * <p>Design: payments are appended open-loop to a schema log (event time = wall clock), users in
 * turn; 80 % of them get an outcome appended to the outcome log 2 s later, as labels arrive in
 * life — the scoring job merges the two logs in event time, so an outcome log with nothing new
 * would hold payments back up to the idle timeout (see the notes). Latency = the listener's
 * receipt of the payment's score − the payment's scheduled append time.
 */
public final class FraudLatencyBench implements Benchmark {
    static final int USERS = 10_000;
    static final int PARTITIONS = 2;
    static final int PARALLELISM = 2;
    static final int[] RATES = {10_000, 50_000};
    private static final Duration DRAIN = Duration.ofSeconds(10);
    private static final long OUTCOME_DELAY_NANOS = 2_000_000_000L;

    @Override
    public String name() {
        return "fraud-latency";
    }

    @Override
    public String title() {
        return "payment → score written, at 10,000 and 50,000 payments/s: StreamGrid scoring job vs plain Jet mapUsingIMap + "
                + "mapStateful (entry listener on each scores map)";
    }

    @Override
    public BenchResult run(final BenchContext context) throws Exception {
        final Duration warmUp = context.pick(Duration.ofSeconds(5), Duration.ofSeconds(10));
        final Duration measured = context.pick(Duration.ofSeconds(10), Duration.ofSeconds(20));
        final List<LatencyProfile> profiles = new ArrayList<>();
        try (EmbeddedGrid grid = EmbeddedGrid.start(context.workDir().resolve("member"));
             StreamGridClient client = StreamGridClient.connect(grid.clientSettings())) {
            final HazelcastInstance member = grid.member();
            final double[] weights = new double[Features.DIMENSIONS];
            weights[0] = -2;
            member.getMap(Payments.MODELS).put(FraudScoringJob.MODEL, new ModelVersion(FraudScoringJob.MODEL, 1, weights, 100, 0));
            int round = 0;
            for (final int rate : RATES) {
                round++;
                final Path ours = context.workDir().resolve("ours-" + round);
                profiles.add(measure(context, member, client.hazelcast(), "StreamGrid scoring job", rate, warmUp, measured, ours,
                        Payments.SCORES, () -> Jobs.submit(member.getJet(), new FraudScoringJob().job(),
                                JobOptions.of(ours).withLocalParallelism(PARALLELISM), null, config("bench-fraud-latency-ours-" + rate))));
                final Path jet = context.workDir().resolve("jet-" + round);
                profiles.add(measure(context, member, client.hazelcast(), "plain Jet mapUsingIMap + mapStateful", rate, warmUp,
                        measured, jet, FraudScoringBench.JET_SCORES, () -> member.getJet().newJob(FraudScoringBench.pipeline(logOf(jet),
                                jet.resolve("feedback")), config("bench-fraud-latency-jet-" + rate))));
            }
        }
        context.emptyWorkDir();
        final List<Ratio> ratios = new ArrayList<>();
        for (int r = 0; r < RATES.length; r++) {
            final LatencyProfile ours = profiles.get(2 * r);
            final LatencyProfile jet = profiles.get(2 * r + 1);
            ratios.add(Ratio.of(String.format(Locale.ROOT, "plain Jet / StreamGrid, p50 at %,d/s", RATES[r]), jet.p50Us(), ours.p50Us(),
                    "above 1: we are faster"));
            ratios.add(Ratio.of(String.format(Locale.ROOT, "plain Jet / StreamGrid, p99 at %,d/s", RATES[r]), jet.p99Us(), ours.p99Us(),
                    "above 1: we are faster"));
        }
        return new BenchResult(name(), title(), String.format(Locale.ROOT, "One embedded member (Jet, 2 cooperative threads) and "
                        + "one client in the benchmark JVM, on 2 cores. Payments of %,d users in turn, appended open-loop to a "
                        + "schema log of %d partitions (event time = wall clock); 80 %% get an outcome 2 s later in the outcome "
                        + "log. Local parallelism %d; no processing guarantee for either. %d s warm-up, %d s measured per subject "
                        + "and rate, then up to %d s for late scores. Latency from the payment's scheduled append to the client's "
                        + "entry listener receiving its score.", USERS, PARTITIONS, PARALLELISM, warmUp.toSeconds(),
                        measured.toSeconds(), DRAIN.toSeconds()),
                context.pick("quick", "full"), Instant.now().toString(), Environment.current(), List.of(), profiles, ratios, List.of(),
                List.of("Both score with the example's PaymentProfile and LogisticModel and write a FraudScore per payment; "
                                + "ours also pairs each outcome with its payment and emits predictions and outcomes to the feedback "
                                + "log; the reference reads the payments only.",
                        "Ours merges the payment and outcome logs in event time (the order a replay repeats): a payment waits "
                                + "until the outcome log holds a later record. Here outcomes flow at 0.8× the payment rate; with "
                                + "the outcome log quiet, a payment would wait up to the job's idle timeout (1 s) for a heartbeat.",
                        "Lost counts measured payments whose score was not received within " + DRAIN.toSeconds() + " s."));
    }

    private static Path logOf(final Path dir) {
        return SchemaLog.directoryOf(dir, Payments.PAYMENT.name());
    }

    private static JobConfig config(final String name) {
        return new JobConfig().setName(name).setProcessingGuarantee(ProcessingGuarantee.NONE);
    }

    private interface Starter {
        Job start();
    }

    private static LatencyProfile measure(final BenchContext context, final HazelcastInstance member, final HazelcastInstance client,
                                          final String label, final int rate, final Duration warmUp, final Duration measured,
                                          final Path dir, final String scoresMap, final Starter starter) throws Exception {
        final SplittableRandom random = new SplittableRandom(rate);
        final SchemaRecord payment = new SchemaRecord(Payments.PAYMENT.layout());
        final SchemaRecord outcome = new SchemaRecord(Payments.OUTCOME.layout());
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[256]);
        final ArrayDeque<long[]> dueOutcomes = new ArrayDeque<>(); // {due nanos, user, txn}
        try (SchemaLog payments = SchemaLog.open(logOf(dir), Payments.PAYMENT, PARTITIONS);
             SchemaLog outcomes = SchemaLog.open(logOf(dir).resolveSibling(Payments.OUTCOME.name()), Payments.OUTCOME, PARTITIONS)) {
            final Job job = starter.start();
            try {
                return DeliveryLatency.measure(context, label, "payments", rate, warmUp, measured, DRAIN, txn -> {
                    final long now = System.nanoTime();
                    while (!dueOutcomes.isEmpty() && dueOutcomes.peek()[0] <= now) {
                        final long[] due = dueOutcomes.poll();
                        outcomes.append(outcome.wrapForWrite(buffer, 0).setLong(0, due[1]).setTimestamp(1, System.currentTimeMillis())
                                .setLong(2, due[2]).setBoolean(3, random.nextInt(20) == 0));
                    }
                    final long user = txn % USERS;
                    payments.append(payment.wrapForWrite(buffer, 0).sequence(txn).setLong(0, user)
                            .setTimestamp(1, System.currentTimeMillis()).setLong(2, txn)
                            .setDouble(3, Math.round(Math.exp(3.5 + random.nextGaussian() * 0.8) * 100) / 100.0)
                            .setInt(4, random.nextInt(Features.CATEGORIES)));
                    if (random.nextInt(5) > 0) {
                        dueOutcomes.add(new long[] {now + OUTCOME_DELAY_NANOS, user, txn});
                    }
                }, delivered -> listen(client.getMap(scoresMap), delivered));
            } finally {
                job.cancel();
                member.getMap(scoresMap).destroy();
            }
        }
    }

    private static AutoCloseable listen(final IMap<Long, FraudScore> scores, final IntConsumer delivered) {
        final UUID id = scores.addEntryListener((EntryAddedListener<Long, FraudScore>) (EntryEvent<Long, FraudScore> event) ->
                delivered.accept((int) (long) event.getKey()), false);
        return () -> scores.removeEntryListener(id);
    }
}
