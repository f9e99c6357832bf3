package io.streamgrid.examples.cli;

import com.hazelcast.jet.Job;
import io.streamgrid.cli.ClusterDemo;
import io.streamgrid.cli.StreamGridCli;
import io.streamgrid.client.StreamGridClient;
import io.streamgrid.cluster.LocalCluster;
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
import io.streamgrid.sink.ChildJvm;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code streamgrid demo federated}: federated averaging on three member processes — the aggregator
 * a keyed job, exactly-once — with 30 devices in three client processes of their own, each keeping
 * its examples (a Dirichlet label skew: most devices see mostly one label) and publishing only its
 * clipped model updates; one device process killed with SIGKILL mid-round. Prints every round (how it
 * closed, its updates, the held-out accuracy); at the end checks that every round was recorded once
 * and that the global model equals offline FedAvg over the recorded rounds bit for bit, and prints
 * the accuracy beside training on the pooled data (the price of federation). Exit 0 only when the
 * checks pass.
 */
@Command(name = "federated", mixinStandardHelpOptions = true,
        description = {"Run federated averaging on 3 members: 30 devices in 3 processes train on their own data and publish only",
                "model updates; the aggregator (a keyed job) closes rounds at a quorum or a deadline; a device process is killed",
                "mid-round. Checks every round once and the model equal to offline FedAvg; prints accuracy against pooled training."})
public final class FederatedDemo extends ClusterDemo {
    private static final int DEVICES = 30;
    private static final int PROCESSES = 3;
    private static final DeviceData.Spec DATA = new DeviceData.Spec(2026, 0.2, 80);

    @Option(names = "--rounds", defaultValue = "20", description = "Rounds (default: ${DEFAULT-VALUE}).")
    long rounds;

    @Option(names = "--noise", defaultValue = "0", description = "The noise multiplier σ (Gaussian noise of σ × clip / updates on each mean; "
            + "default: ${DEFAULT-VALUE}: none).")
    double noise;

    @Option(names = "--secure", description = "Secure aggregation: devices mask their updates with pairwise masks that cancel in the sum, "
            + "so the aggregator sees the sum only.")
    boolean secure;

    @Option(names = "--deadline-ms", defaultValue = "2000", description = "How long a round stays open at most (default: ${DEFAULT-VALUE}).")
    long deadlineMs;

    @Override
    protected int run(final PrintWriter out) throws Exception {
        final FederatedModel plain = new FederatedModel("demo", 16, DEVICES, 12, 9, 2, 0.05, 2.0, noise, 7);
        final FederatedModel model = secure ? plain.securely() : plain;
        final DeviceData data = DATA.devices(model.dimensions());
        final List<LocalExample> heldOut = data.heldOut(5_000);
        final double[] pooled = LocalTraining.pooled(model, data);
        out.println("== StreamGrid federated averaging demo: " + DEVICES + " devices in " + PROCESSES + " processes, " + model.perRound()
                + " chosen per round, a quorum of " + model.quorum() + ", a deadline of " + deadlineMs + " ms, " + rounds + " rounds of "
                + model.localEpochs() + " local epochs; updates clipped to norm " + model.clipNorm()
                + (noise > 0 ? ", noise multiplier " + noise : ", no noise") + (secure ? "; secure aggregation (masked updates)" : ""));
        final JobOptions options = workDir.jobOptions();
        final KeyedJob<?> job = new AggregatorJob(model).job();
        final List<ChildJvm> processes = new ArrayList<>();
        try (LocalCluster cluster = workDir.startThreeMembers(out, FederatedEvents.PARTITIONS, FederatedEvents.schemasYaml());
             StreamGridClient client = StreamGridClient.connect(cluster.clientSettings())) {
            SchemaLog.open(Jobs.logDirectory(job, options), FederatedEvents.UPDATE, FederatedEvents.PARTITIONS).close();
            final Job aggregator = Jobs.submit(client.hazelcast().getJet(), job, options);
            out.println("== aggregator job " + job.name() + " submitted (exactly-once, snapshots every " + options.snapshotIntervalMs()
                    + " ms)");
            for (int p = 0; p < PROCESSES; p++) {
                final long from = (long) p * DEVICES / PROCESSES;
                final long to = (long) (p + 1) * DEVICES / PROCESSES;
                processes.add(FederatedDevices.launch(workDir.path().resolve("devices-" + p + ".log"), line -> out.println("   " + line),
                        cluster.clientSettings(), model, DATA, from, to, rounds));
                out.println("== device process " + p + " (devices " + from + " to " + (to - 1) + ") started, pid "
                        + processes.get(p).pid());
            }
            FederatedDevices.awaitConnected(processes, Duration.ofMinutes(1));
            out.println("== the devices are connected; the coordinator starts round 1");
            try (FederationCoordinator coordinator = FederationCoordinator.start(client, model, Duration.ofMillis(deadlineMs), rounds,
                    line -> out.println("   " + line))) {
                final Map<Long, RoundRecord> recorded = client.hazelcast().getMap(model.roundsMap());
                long reported = 0;
                boolean killed = false;
                final long giveUpAt = System.nanoTime() + Duration.ofMinutes(5).toNanos();
                while (reported < rounds && System.nanoTime() < giveUpAt) {
                    final RoundRecord round = recorded.get(reported + 1);
                    if (round == null) {
                        Thread.sleep(50);
                        continue;
                    }
                    reported++;
                    final GlobalModel global = (GlobalModel) client.get(model.globalMap(), model.name());
                    out.printf(Locale.ROOT, "   round %d closed by %s: %d updates (%d refused), held-out accuracy %.3f%n", round.round(),
                            round.closedBy(), round.devices().length, round.refused(),
                            global == null ? 0.0 : LocalTraining.accuracy(global.weights(), heldOut));
                    out.flush();
                    if (!killed && reported == rounds / 4) {
                        processes.get(PROCESSES - 1).kill();
                        killed = true;
                        out.println("== killed device process " + (PROCESSES - 1) + " with SIGKILL mid-round: its devices drop out");
                    }
                }
                out.println(coordinator.awaitRounds(Duration.ofSeconds(10)) ? "== all " + rounds + " rounds closed"
                        : "== gave up waiting: round " + coordinator.openRound() + " is open");
                final Map<Long, RoundRecord> rounds = new HashMap<>(recorded);
                final GlobalModel global = (GlobalModel) client.get(model.globalMap(), model.name());
                boolean equal = false;
                String replay;
                try {
                    equal = global != null && java.util.Arrays.equals(global.weights(), OfflineFedAvg.replay(model, data, rounds, this.rounds));
                    replay = equal ? "equal bit for bit" : "DIFFERENT";
                } catch (final IllegalStateException e) {
                    replay = "not comparable: " + e.getMessage();
                }
                final long missing = java.util.stream.LongStream.rangeClosed(1, this.rounds).filter(r -> !rounds.containsKey(r)).count();
                final double accuracy = global == null ? 0 : LocalTraining.accuracy(global.weights(), heldOut);
                out.printf(Locale.ROOT, "== check: %d rounds expected, %d found, %d lost; the global model against offline FedAvg over the "
                                + "recorded rounds: %s%n", this.rounds, rounds.size(), missing, replay);
                out.printf(Locale.ROOT, "== held-out accuracy %.3f federated, %.3f trained on the pooled data (the price of federation: "
                        + "%.3f)%n", accuracy, LocalTraining.accuracy(pooled, heldOut), LocalTraining.accuracy(pooled, heldOut) - accuracy);
                aggregator.cancel();
                final boolean passed = missing == 0 && equal;
                out.println(passed ? "== federated demo passed; stopping the devices and the cluster" : "== federated demo FAILED");
                return passed ? 0 : StreamGridCli.EXIT_FAILED;
            }
        } finally {
            processes.forEach(ChildJvm::close);
        }
    }
}
