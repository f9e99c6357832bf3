package io.streamgrid.perf.bench;

import com.hazelcast.jet.Job;
import io.streamgrid.client.StreamGridClient;
import io.streamgrid.examples.federated.AggregatorJob;
import io.streamgrid.examples.federated.DeviceData;
import io.streamgrid.examples.federated.FederatedDevices;
import io.streamgrid.examples.federated.FederatedEvents;
import io.streamgrid.examples.federated.FederatedModel;
import io.streamgrid.examples.federated.FederationCoordinator;
import io.streamgrid.examples.federated.GlobalModel;
import io.streamgrid.examples.federated.LocalExample;
import io.streamgrid.examples.federated.LocalTraining;
import io.streamgrid.examples.federated.OfflineFedAvg;
import io.streamgrid.examples.federated.RoundRecord;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.perf.BenchContext;
import io.streamgrid.perf.Benchmark;
import io.streamgrid.perf.report.BenchResult;
import io.streamgrid.perf.report.Environment;
import io.streamgrid.perf.report.LineChart;
import io.streamgrid.perf.report.Measurement;
import io.streamgrid.perf.report.Ratio;
import io.streamgrid.sink.ChildJvm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Federated averaging (examples' {@code federated}, decision record 0016) on one embedded member with
 * the devices in three client processes: rounds per second and the latency from the update that
 * completes a round's quorum to the new global model, against 10, 100 and 1,000 devices; and the
 * held-out accuracy by round against training on the pooled data (the price of federation; a chart,
 * {@code perf/results/federated-accuracy.png}); and what secure aggregation costs in rounds per
 * second at 100 devices.
 *
 * <p>Design: a tenth of the devices (at least 5) chosen per round, a quorum of four fifths of them,
 * a deadline of 5 s; each run starts its rounds once the device processes are connected. The latency
 * of a round closed by its quorum runs from the wall-clock time the closing device handed its update
 * to its publisher (its process prints it) to the time a reader polling the global model every
 * millisecond in this JVM first saw the next round — one machine's clock; a round closed by its
 * deadline has no such latency. Every run's model is checked equal to offline FedAvg over its
 * recorded rounds, which also gives the model after each round for the accuracy curve.
 */
public final class FederatedBench implements Benchmark {
    private static final int[] DEVICES = {10, 100, 1_000};
    /** Devices of the secure aggregation run (each device agrees a key with every other chosen one: quadratic in the cohort). */
    private static final int SECURE_DEVICES = 100;
    private static final int DIMENSIONS = 16;
    private static final DeviceData.Spec DATA = new DeviceData.Spec(2027, 0.2, 80);
    private static final int PROCESSES = 3;
    private static final Duration DEADLINE = Duration.ofSeconds(5);
    private static final int HELD_OUT = 5_000;
    /** Rounds whose mean accuracy the ratio takes. */
    private static final int LAST_ROUNDS = 5;
    private static final Pattern SUBMITTED = Pattern.compile("submitted device (\\d+) round (\\d+) samples \\d+ at (\\d+)");

    @Override
    public String name() {
        return "federated";
    }

    @Override
    public String title() {
        return "federated averaging: rounds/s and update → new global model latency against devices; accuracy by round against "
                + "pooled training";
    }

    @Override
    public BenchResult run(final BenchContext context) throws Exception {
        final int rounds = context.pick(10, 30);
        final List<Measurement> measurements = new ArrayList<>();
        final List<Ratio> ratios = new ArrayList<>();
        final List<String> notes = new ArrayList<>();
        final List<LineChart.Curve> curves = new ArrayList<>();
        double pooledAccuracy = 0;
        double plainRoundsPerSecond = 0;
        for (int index = 0; index <= DEVICES.length; index++) {
            // The last run: secure aggregation with SECURE_DEVICES devices, against the plain run of as many.
            final boolean secure = index == DEVICES.length;
            final int devices = secure ? SECURE_DEVICES : DEVICES[index];
            final int perRound = Math.max(5, devices / 10);
            final FederatedModel plain = new FederatedModel("bench-" + devices + (secure ? "-secure" : ""), DIMENSIONS, devices, perRound,
                    perRound * 4 / 5, 2, 0.05, 2.0, 0, devices);
            final FederatedModel model = secure ? plain.securely() : plain;
            context.progress(devices + " devices, " + perRound + " chosen per round, quorum " + model.quorum() + ", " + rounds + " rounds"
                    + (secure ? ", secure aggregation" : ""));
            final Run run = run(context, model, rounds);
            final DeviceData data = DATA.devices(DIMENSIONS);
            final List<LocalExample> heldOut = data.heldOut(HELD_OUT);
            final List<double[]> accuracy = new ArrayList<>();
            accuracy.add(new double[]{0, LocalTraining.accuracy(new double[DIMENSIONS], heldOut)});
            final double[] replayed = OfflineFedAvg.replay(model, data, run.rounds(), rounds,
                    (round, weights) -> accuracy.add(new double[]{round, LocalTraining.accuracy(weights, heldOut)}));
            if (!Arrays.equals(replayed, run.finalWeights())) {
                throw new IllegalStateException(devices + " devices: the global model differs from offline FedAvg over the recorded rounds");
            }
            final double pooled = LocalTraining.accuracy(LocalTraining.pooled(model, data), heldOut);
            final String subject = devices + " devices (" + perRound + " a round)" + (secure ? ", secure aggregation" : "");
            final Measurement roundsPerSecond = Measurement.of("FedAvg rounds, " + subject, "ours", "rounds/s",
                    rounds * 1e9 / run.nanos());
            measurements.add(roundsPerSecond);
            if (devices == SECURE_DEVICES && !secure) {
                plainRoundsPerSecond = roundsPerSecond.median();
            }
            if (secure) {
                ratios.add(Ratio.of("secure / plain aggregation, rounds/s, " + devices + " devices", roundsPerSecond.median(),
                        plainRoundsPerSecond, "below 1: what masking costs (key agreements per pair, a round of corrections)"));
            } else {
                pooledAccuracy = pooled;
            }
            if (run.latenciesMs().length > 0) {
                measurements.add(Measurement.of("closing update → new global model, " + subject, "ours", "ms", run.latenciesMs()));
            }
            // Label-skewed rounds move the model to and fro: the mean of the last rounds' accuracy, not the last one's.
            final double federatedAccuracy = accuracy.subList(accuracy.size() - LAST_ROUNDS, accuracy.size()).stream()
                    .mapToDouble(point -> point[1]).average().orElseThrow();
            if (!secure) {
                ratios.add(Ratio.of("federated / pooled training, held-out accuracy (mean of rounds " + (rounds - LAST_ROUNDS + 1) + " to "
                        + rounds + "), " + subject,
                        federatedAccuracy, pooled, "below 1: the price of federation (each device sees mostly one label)"));
            }
            final long quorumRounds = run.rounds().values().stream().filter(r -> r.closedBy().equals("QUORUM")).count();
            notes.add(String.format(Locale.ROOT, "%s: %d of %d rounds closed by quorum, the rest by the %d s deadline; %d updates taken, "
                            + "%d refused (late); held-out accuracy %.3f over the last %d rounds, pooled training %.3f; the model equals offline "
                            + "FedAvg over the recorded rounds bit for bit", subject, quorumRounds, rounds, DEADLINE.toSeconds(),
                    run.rounds().values().stream().mapToLong(r -> r.devices().length).sum(),
                    run.rounds().values().stream().mapToLong(RoundRecord::refused).sum(), federatedAccuracy, LAST_ROUNDS, pooled));
            context.progress(notes.get(notes.size() - 1));
            if (!secure) {
                curves.add(new LineChart.Curve("federated, " + devices + " devices", accuracy));
            }
        }
        curves.add(new LineChart.Curve(String.format(Locale.ROOT, "pooled, 1,000 devices' data: %.3f", pooledAccuracy),
                List.of(new double[]{0, pooledAccuracy}, new double[]{rounds, pooledAccuracy})));
        final String chart = "federated-accuracy.png";
        LineChart.draw("held-out accuracy by round: FedAvg against training on the pooled data", "round", "held-out accuracy", curves,
                context.resultsDir().resolve(chart));
        notes.add("![held-out accuracy by round](results/" + chart + ")");
        context.emptyWorkDir();
        return new BenchResult(name(), title(), String.format(Locale.ROOT, "Logistic regression over %d features (the bias and %d normal "
                        + "ones around each label's mean); each device 20 to 140 examples (mean 80) with a Beta(0.2, 0.2) share of "
                        + "positives (the two-label Dirichlet skew: most devices see mostly one label); 2 local epochs of SGD at 0.05 (pooled training: 10 passes at 0.05 over all the devices' examples), "
                        + "updates clipped to norm 2, no noise; %d rounds (the last run with secure aggregation); a tenth of the devices (at least 5) chosen a round, a quorum of "
                        + "four fifths of them, a %d s deadline. One run per configuration (rounds/s from it; the latency's runs are its rounds "
                        + "closed by quorum). One embedded member (the aggregator: a keyed job, exactly-once, "
                        + "snapshots every second), the devices in %d client processes publishing through the publish API, the "
                        + "coordinator and a 1 ms reader of the global model in the benchmark's JVM; %,d held-out examples.",
                DIMENSIONS, DIMENSIONS - 1, rounds, DEADLINE.toSeconds(), PROCESSES, HELD_OUT),
                context.pick("quick", "full"), Instant.now().toString(), Environment.current(), measurements, List.of(), ratios,
                List.of(), notes);
    }

    /** A run: its duration from the start to the last round closed, the rounds recorded, the final model, the quorum rounds' latencies. */
    private record Run(long nanos, Map<Long, RoundRecord> rounds, double[] finalWeights, double[] latenciesMs) {
    }

    private static Run run(final BenchContext context, final FederatedModel model, final int rounds) throws Exception {
        final Path dir = Files.createDirectories(context.workDir().resolve(model.name()));
        final Path ingest = Files.createDirectories(dir.resolve("ingest")).toAbsolutePath();
        final Path config = Files.writeString(dir.resolve("member.yaml"), FederatedEvents.membersYaml(ingest));
        final List<ChildJvm> processes = new ArrayList<>();
        try (EmbeddedGrid grid = EmbeddedGrid.start(dir.resolve("member"), Optional.of(config));
             StreamGridClient client = StreamGridClient.connect(grid.clientSettings())) {
            final KeyedJob<?> job = new AggregatorJob(model).job();
            final JobOptions options = JobOptions.of(ingest).withLocalParallelism(2);
            SchemaLog.open(Jobs.logDirectory(job, options), FederatedEvents.UPDATE, FederatedEvents.PARTITIONS).close();
            final Job aggregator = Jobs.submit(grid.member().getJet(), job, options);
            try {
                for (int p = 0; p < PROCESSES; p++) {
                    processes.add(FederatedDevices.launch(dir.resolve("devices-" + p + ".log"), context::progress, grid.clientSettings(),
                            model, DATA, (long) p * model.devices() / PROCESSES, (long) (p + 1) * model.devices() / PROCESSES, rounds));
                }
                FederatedDevices.awaitConnected(processes, Duration.ofMinutes(2));
                final Map<Long, Long> firstSeenMs = new ConcurrentHashMap<>();
                final Thread reader = new Thread(() -> watch(client, model, rounds, firstSeenMs), "fl-bench-reader");
                reader.setDaemon(true);
                reader.start();
                final long start = System.nanoTime();
                try (FederationCoordinator coordinator = FederationCoordinator.start(client, model, DEADLINE, rounds, line -> { })) {
                    if (!coordinator.awaitRounds(Duration.ofMinutes(10))) {
                        throw new IllegalStateException(model.devices() + " devices: round " + coordinator.openRound()
                                + " still open after 10 minutes");
                    }
                }
                final long nanos = System.nanoTime() - start;
                reader.join(10_000);
                final Map<Long, RoundRecord> recorded = new HashMap<>(client.hazelcast().<Long, RoundRecord>getMap(model.roundsMap()));
                final double[] weights = ((GlobalModel) client.get(model.globalMap(), model.name())).weights();
                return new Run(nanos, recorded, weights, latencies(processes, recorded, firstSeenMs));
            } finally {
                aggregator.cancel();
            }
        } finally {
            processes.forEach(ChildJvm::close);
        }
    }

    /** Notes when each round's global model is first seen, polling every millisecond, until the last round closed. */
    private static void watch(final StreamGridClient client, final FederatedModel model, final int rounds, final Map<Long, Long> firstSeenMs) {
        long last = 0;
        while (last <= rounds) {
            final GlobalModel global = (GlobalModel) client.get(model.globalMap(), model.name());
            if (global != null && global.round() != last) {
                last = global.round();
                firstSeenMs.putIfAbsent(last, System.currentTimeMillis());
            }
            try {
                Thread.sleep(1);
            } catch (final InterruptedException e) {
                return;
            }
        }
    }

    /** Per round closed by its quorum: from its closing update's hand-over (the device's log) to the next round first seen. */
    private static double[] latencies(final List<ChildJvm> processes, final Map<Long, RoundRecord> recorded,
                                      final Map<Long, Long> firstSeenMs) throws java.io.IOException {
        final Map<List<Long>, Long> submittedAt = new HashMap<>();
        for (final ChildJvm process : processes) {
            final Matcher line = SUBMITTED.matcher(Files.readString(process.logFile()));
            while (line.find()) {
                submittedAt.put(List.of(Long.parseLong(line.group(1)), Long.parseLong(line.group(2))), Long.parseLong(line.group(3)));
            }
        }
        final List<Double> latencies = new ArrayList<>();
        for (final RoundRecord round : recorded.values()) {
            final Long seen = firstSeenMs.get(round.round() + 1);
            if (!round.closedBy().equals("QUORUM") || seen == null) {
                continue;
            }
            final Long submitted = submittedAt.get(List.of(round.devices()[round.devices().length - 1], round.round()));
            if (submitted != null) {
                latencies.add((double) (seen - submitted));
            }
        }
        return latencies.stream().mapToDouble(Double::doubleValue).toArray();
    }
}
