package io.streamgrid.examples.jobs;

import com.hazelcast.jet.Job;
import io.streamgrid.client.StreamGridClient;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cluster.MemberProcess;
import io.streamgrid.cluster.TestWorkDir;
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
import io.streamgrid.examples.federated.SecureAggregation;
import io.streamgrid.examples.federated.UnmaskRequest;
import io.streamgrid.examples.federated.Vectors;
import io.streamgrid.examples.federated.RoundRecord;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.Scenario;
import io.streamgrid.jobs.ingest.PartitionReader;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.sink.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Federated averaging end to end on real processes: member JVMs run the aggregator (exactly-once,
 * snapshots every 200 ms), devices run in two client JVMs of their own publishing their updates
 * through the publish API, the coordinator (this test) publishes the start and the deadlines. The
 * oracle is offline FedAvg over the rounds the grid recorded: for each round, the recorded devices'
 * local training from the offline global model, their weighted mean and the round's seeded noise —
 * the grid's final model must equal it bit for bit (an update taken twice, skipped, or trained from
 * another model would move it).
 */
class FederatedAveragingTest {
    private static final DeviceData.Spec DATA = new DeviceData.Spec(41, 0.3, 60);
    private static final Pattern SUBMITTED = Pattern.compile("submitted device (\\d+) round (\\d+) samples (\\d+)");

    /**
     * Design: 12 devices (6 per process), 8 chosen per round, a quorum of 6, 10 rounds, Gaussian
     * noise (multiplier 0.5) on every mean, deadline 1 s, three members. Once round 3 is open the
     * second device process is killed with SIGKILL; once round 5 is open a member is killed with
     * SIGKILL — the aggregator's own when it is not Jet's coordinator (whose loss is a different
     * test: Jet waits out invocation timeouts), else another: either way the job restarts from its
     * last snapshot and re-reads the log from there. Rounds must go on without the killed devices —
     * closed by the deadline when fewer than 6 of the chosen are alive — every round recorded once
     * with distinct chosen devices, every update taken submitted by its device for that round, and
     * the model equal to offline FedAvg with the same noise: a round closed twice, or with other
     * updates, would differ. And no raw example reaches the grid: every file the members wrote under
     * the ingest directory (the update log: the only way in) is searched for every device example's
     * feature values — 8 bytes each, both byte orders — and none is found.
     */
    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void when_aDeviceProcessAndTheAggregatorsMemberAreKilledMidRound_then_everyRoundClosesOnceAndTheModelEqualsOfflineFedAvg(
            final TestInfo test) throws Exception {
        final FederatedModel model = new FederatedModel("killed", 8, 12, 8, 6, 2, 0.05, 2.0, 0.5, 11);
        final Path workDir = TestWorkDir.of(test);
        try (Federation federation = Federation.start(workDir, model, 3, 10, Duration.ofMillis(1_000))) {
            await().atMost(Duration.ofMinutes(1)).until(() -> federation.coordinator.openRound() >= 3);
            federation.devices.get(1).kill();
            System.out.println("killed the process of devices 6 to 11 with round " + federation.coordinator.openRound() + " open");
            await().atMost(Duration.ofMinutes(1)).until(() -> federation.coordinator.openRound() >= 5);
            final MemberProcess victim = federation.aggregatorMember();
            final boolean aggregators = federation.runsTheAggregator(victim);
            federation.cluster.kill(victim);
            System.out.println("killed member " + victim + (aggregators ? " (the aggregator's)" : " (not the aggregator's: that is Jet's "
                    + "coordinator)") + " with round " + federation.coordinator.openRound() + " open");
            assertThat(federation.coordinator.awaitRounds(Duration.ofMinutes(4))).as("all rounds closed").isTrue();
            final Map<Long, RoundRecord> rounds = federation.rounds();
            federation.print(rounds);
            assertThat(rounds.keySet()).containsExactlyInAnyOrderElementsOf(java.util.stream.LongStream.rangeClosed(1, 10).boxed().toList());
            assertThat(rounds.values()).allSatisfy(round -> assertThat(round.noiseStd()).as("round %d's noise", round.round())
                    .isEqualTo(round.devices().length == 0 ? 0 : 0.5 * 2.0 / round.devices().length));
            final Set<List<Long>> submitted = federation.submittedUpdates();
            long taken = 0;
            long notSubmitted = 0;
            for (final RoundRecord round : rounds.values()) {
                assertThat(round.devices()).as("round %d", round.round()).doesNotHaveDuplicates();
                for (final long device : round.devices()) {
                    assertThat(AggregatorJob.cohort(model, round.round())).as("round %d's cohort", round.round()).contains(device);
                    notSubmitted += submitted.contains(List.of(device, round.round())) ? 0 : 1;
                    taken++;
                }
                if (round.round() >= 5) {
                    assertThat(Arrays.stream(round.devices()).boxed().toList()).as("round %d took devices of the killed process",
                            round.round()).allSatisfy(device -> assertThat(device).isLessThan(6));
                }
            }
            assertThat(notSubmitted).as("updates taken that their device did not submit for that round").isZero();
            assertThat(rounds.values().stream().filter(r -> r.round() >= 5).map(RoundRecord::closedBy))
                    .as("rounds after the device kill closed by deadline when too few of the chosen were alive").contains("DEADLINE");
            final double[] offline = OfflineFedAvg.replay(model, DATA.devices(model.dimensions()), rounds, 10);
            final double[] grid = federation.globalWeights();
            final long differ = java.util.stream.IntStream.range(0, offline.length).filter(d -> offline[d] != grid[d]).count();
            System.out.println(taken + " updates expected (recorded in 10 rounds, each submitted by its device), " + (differ == 0 ? taken
                    : "not " + taken) + " found in the model; " + differ + " of " + offline.length + " weights differ from offline FedAvg");
            assertThat(grid).containsExactly(offline);
            checkNoRawExampleIn(workDir.resolve("ingest"), model);
        }
    }

    /**
     * Design: secure aggregation — 10 devices (5 per process), 6 chosen per round, a quorum of 5 (so
     * most rounds drop one chosen device, whose masks the survivors' corrections must remove), 6
     * rounds, deadline 1.2 s (a round whose corrections miss the next one is abandoned, and counts for nothing); the second device process is killed with SIGKILL once round 3 is open.
     * The grid's model must equal offline FedAvg (in fixed point) over the recorded rounds bit for
     * bit. From the update log alone — all the grid holds of an update — the survivors' masked updates
     * less their corrections must sum to the survivors' true updates exactly (recomputed offline from
     * the model each round started from), while no single update equals its true value, masked or
     * less its own correction: it stays masked by its pairs with the other survivors.
     */
    @Test
    @Timeout(value = 8, unit = TimeUnit.MINUTES)
    void when_updatesAreMaskedAndADeviceProcessIsKilled_then_theSumIsExactAndNoSingleUpdateIsInTheGrid(final TestInfo test)
            throws Exception {
        final FederatedModel model = new FederatedModel("secure", 8, 10, 6, 5, 2, 0.05, 2.0, 0, 13).securely();
        final Path workDir = TestWorkDir.of(test);
        try (Federation federation = Federation.start(workDir, model, 1, 6, Duration.ofMillis(1_200))) {
            await().atMost(Duration.ofMinutes(1)).until(() -> federation.coordinator.openRound() >= 3);
            federation.devices.get(1).kill();
            System.out.println("killed the process of devices 5 to 9 with round " + federation.coordinator.openRound() + " open");
            assertThat(federation.coordinator.awaitRounds(Duration.ofMinutes(3))).as("all rounds closed").isTrue();
            final Map<Long, RoundRecord> rounds = federation.rounds();
            federation.print(rounds);
            final DeviceData data = DATA.devices(model.dimensions());
            final Map<Long, double[]> before = new HashMap<>(Map.of(1L, new double[model.dimensions()]));
            assertThat(federation.globalWeights()).containsExactly(OfflineFedAvg.replay(model, data, rounds, 6,
                    (round, weights) -> before.put(round + 1, weights)));

            final Map<List<Long>, long[]> masked = new HashMap<>();
            final Map<List<Long>, long[]> corrections = new HashMap<>();
            try (SchemaLog log = SchemaLog.openExisting(SchemaLog.directoryOf(workDir.resolve("ingest"), FederatedEvents.UPDATE.name()),
                    FederatedEvents.UPDATE); PartitionReader reader = log.reader(0, PartitionReader.START)) {
                final SchemaRecord record = new SchemaRecord(FederatedEvents.UPDATE.layout());
                int length;
                while ((length = reader.next()) >= 0) {
                    if (length != FederatedEvents.UPDATE.layout().length()) {
                        continue; // a heartbeat or the writers' clock
                    }
                    record.wrap(reader.buffer(), 0, length);
                    final String kind = record.get(FederatedEvents.UPDATE.enumField("kind"));
                    final List<Long> at = List.of(record.get(FederatedEvents.UPDATE.longField("device")),
                            record.get(FederatedEvents.UPDATE.longField("round")));
                    if (kind.equals("UPDATE") || kind.equals("UNMASK")) {
                        (kind.equals("UPDATE") ? masked : corrections).putIfAbsent(at,
                                Vectors.decodeLongs(record.get(FederatedEvents.UPDATE.stringField("delta")), model.dimensions() + 1));
                    }
                }
            }
            long summed = 0;
            long recoverable = 0;
            long droppedRounds = 0;
            for (final RoundRecord round : rounds.values()) {
                final UnmaskRequest request = (UnmaskRequest) federation.client.get(model.unmaskMap(), round.round());
                droppedRounds += request != null && request.dropped().length > 0 && round.devices().length > 0 ? 1 : 0;
                final long[] unmasked = new long[model.dimensions() + 1];
                final long[] truth = new long[model.dimensions() + 1];
                for (final long device : round.devices()) {
                    final List<Long> at = List.of(device, round.round());
                    final LocalTraining.Update update = LocalTraining.train(model, before.get(round.round()), data.of(device), device,
                            round.round());
                    final long[] x = SecureAggregation.encode(update.delta(), update.samples());
                    final long[] lessOwnCorrection = masked.get(at).clone();
                    SecureAggregation.add(lessOwnCorrection, corrections.get(at), -1);
                    recoverable += Arrays.equals(masked.get(at), x) || Arrays.equals(lessOwnCorrection, x) ? 1 : 0;
                    SecureAggregation.add(unmasked, lessOwnCorrection, 1);
                    SecureAggregation.add(truth, x, 1);
                    summed++;
                }
                assertThat(unmasked).as("round %d's unmasked sum", round.round()).containsExactly(truth);
            }
            System.out.println(summed + " masked updates in " + rounds.size() + " rounds (" + droppedRounds + " with chosen devices "
                    + "dropped): every round's sum exact, " + recoverable + " single updates equal to their true value");
            assertThat(recoverable).isZero();
            assertThat(summed).isPositive();
            assertThat(droppedRounds).as("rounds whose survivors corrected for dropped devices").isPositive();
        }
    }

    /** Searches every file under {@code dir} for every device example's feature values; none may be there. */
    private static void checkNoRawExampleIn(final Path dir, final FederatedModel model) throws IOException {
        final DeviceData data = DATA.devices(model.dimensions());
        final Set<Long> raw = new HashSet<>();
        for (long device = 0; device < model.devices(); device++) {
            for (final LocalExample example : data.of(device)) {
                for (int d = 1; d < example.features().length; d++) {
                    final long bits = Double.doubleToRawLongBits(example.features()[d]);
                    raw.add(bits);
                    raw.add(Long.reverseBytes(bits));
                }
            }
        }
        long bytes = 0;
        long found = 0;
        try (Stream<Path> files = Files.walk(dir)) {
            for (final Path file : files.filter(Files::isRegularFile).toList()) {
                final ByteBuffer content = ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.BIG_ENDIAN);
                for (int i = 0; i + Long.BYTES <= content.limit(); i++) {
                    found += raw.contains(content.getLong(i)) ? 1 : 0;
                }
                bytes += content.limit();
            }
        }
        System.out.println(raw.size() / 2 + " raw feature values searched for in " + bytes + " bytes of the members' logs: " + found
                + " found");
        assertThat(bytes).as("bytes searched").isPositive();
        assertThat(found).as("raw feature values in the grid").isZero();
    }

    /** A running federation: members, the aggregator job, the coordinator, two device processes. */
    private static final class Federation implements AutoCloseable {
        final LocalCluster cluster;
        final StreamGridClient client;
        final Job aggregator;
        final FederationCoordinator coordinator;
        final List<ChildJvm> devices = new ArrayList<>();
        final FederatedModel model;

        private Federation(final LocalCluster cluster, final StreamGridClient client, final Job aggregator,
                           final FederationCoordinator coordinator, final FederatedModel model) {
            this.cluster = cluster;
            this.client = client;
            this.aggregator = aggregator;
            this.coordinator = coordinator;
            this.model = model;
        }

        static Federation start(final Path workDir, final FederatedModel model, final int members, final long rounds,
                                final Duration deadline) throws Exception {
            final Path ingest = Files.createDirectories(workDir.resolve("ingest")).toAbsolutePath();
            final String name = "fl-" + model.name() + "-" + System.nanoTime();
            final Path config = Files.writeString(workDir.resolve("member.yaml"), "cluster-name: " + name + "\n"
                    + FederatedEvents.membersYaml(ingest));
            final LocalCluster cluster = LocalCluster.builder().members(members).clusterName(name).configFile(config).workDir(workDir)
                    .memberHeap("512m").start();
            StreamGridClient client = null;
            try {
                final KeyedJob<?> job = new AggregatorJob(model).job();
                final JobOptions options = JobOptions.of(ingest).withSnapshotInterval(200).withLocalParallelism(2);
                SchemaLog.open(Jobs.logDirectory(job, options), FederatedEvents.UPDATE, FederatedEvents.PARTITIONS).close();
                client = StreamGridClient.connect(cluster.clientSettings());
                final Job aggregator = Jobs.submit(client.hazelcast().getJet(), job, options);
                Scenario.awaitRunning(aggregator, cluster);
                final List<ChildJvm> devices = new ArrayList<>();
                final long half = model.devices() / 2;
                for (int process = 0; process < 2; process++) {
                    devices.add(FederatedDevices.launch(workDir.resolve("devices-" + process + ".log"), System.out::println,
                            cluster.clientSettings(), model, DATA, process * half, process == 0 ? half : model.devices(), rounds));
                }
                FederatedDevices.awaitConnected(devices, Duration.ofMinutes(1));
                final FederationCoordinator coordinator = FederationCoordinator.start(client, model, deadline, rounds, System.out::println);
                final Federation federation = new Federation(cluster, client, aggregator, coordinator, model);
                federation.devices.addAll(devices);
                return federation;
            } catch (final Exception | Error e) {
                if (client != null) {
                    client.close();
                }
                cluster.close();
                throw e;
            }
        }

        Map<Long, RoundRecord> rounds() {
            final Map<Long, RoundRecord> rounds = new HashMap<>();
            client.hazelcast().<Long, RoundRecord>getMap(model.roundsMap()).forEach(rounds::put);
            return rounds;
        }

        void print(final Map<Long, RoundRecord> rounds) {
            rounds.values().stream().sorted(java.util.Comparator.comparingLong(RoundRecord::round)).forEach(round -> System.out.println(
                    "round " + round.round() + " closed by " + round.closedBy() + ": devices " + Arrays.toString(round.devices())
                            + ", " + round.refused() + " refused"));
        }

        double[] globalWeights() {
            return ((GlobalModel) client.get(model.globalMap(), model.name())).weights();
        }

        /** (device, round) of every update the device processes say they submitted. */
        Set<List<Long>> submittedUpdates() throws IOException {
            final Set<List<Long>> submitted = new HashSet<>();
            for (final ChildJvm process : devices) {
                final Matcher lines = SUBMITTED.matcher(Files.readString(process.logFile()));
                while (lines.find()) {
                    submitted.add(List.of(Long.parseLong(lines.group(1)), Long.parseLong(lines.group(2))));
                }
            }
            return submitted;
        }

        /**
         * The member whose processor reads the update log's one partition (from the members' logs,
         * the latest assignment), unless that is Jet's coordinator: then another.
         */
        MemberProcess aggregatorMember() {
            final int coordinatorPort = client.hazelcast().getCluster().getMembers().iterator().next().getAddress().getPort();
            return cluster.members().stream().filter(member -> member.port() != coordinatorPort && runsTheAggregator(member)).findFirst()
                    .orElseGet(() -> Scenario.notTheCoordinator(cluster, client.hazelcast()));
        }

        /** Whether {@code member}'s log says (last) that one of its processors reads the update log's partition. */
        boolean runsTheAggregator(final MemberProcess member) {
            final String log = member.log();
            final int at = log.lastIndexOf("job " + AggregatorJob.name(model) + ": processor");
            return at >= 0 && log.substring(at, Math.min(log.length(), at + 200)).contains("reads partitions [0]");
        }

        @Override
        public void close() throws Exception {
            try {
                coordinator.close();
                devices.forEach(ChildJvm::close);
                aggregator.cancel();
                client.close();
            } finally {
                cluster.close();
            }
        }
    }
}
