package io.streamgrid.examples.cli;

import io.streamgrid.cli.ClusterDemo;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.cli.Demos;
import io.streamgrid.cli.StreamGridCli;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import io.streamgrid.client.Delta;
import io.streamgrid.client.DeltaListener;
import io.streamgrid.client.StreamGridClient;
import io.streamgrid.client.Subscription;
import io.streamgrid.client.SubscriptionOptions;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.examples.machines.FleetStream;
import io.streamgrid.examples.machines.MachineHealthJob;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.pattern.PatternAlert;
import io.streamgrid.jobs.pipeline.JobOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * {@code streamgrid demo machines}: the machine-health example (pattern detection over temperature,
 * pressure and vibration streams, built only on the public API) on three member processes: a fleet's
 * readings appended while it runs, alerts printed as a continuous query delivers them, a member killed
 * with SIGKILL mid-stream, and at the end the alerts compared with the machines known to fail. Exit 0
 * only if every one was raised once and nothing else was.
 */
@Command(name = "machines", mixinStandardHelpOptions = true,
        description = {"Run the machine-health example (patterns across temperature, pressure and vibration per machine)",
                "on 3 members, print maintenance alerts as they come, kill a member mid-stream, and check the alerts",
                "against the machines known to fail."})
public final class MachinesDemo extends ClusterDemo {
    private static final int PARTITIONS = 6;

    @Option(names = "--machines", defaultValue = "300", description = "Machines in the fleet (default: ${DEFAULT-VALUE}).")
    int machines;

    @Option(names = "--seconds", defaultValue = "120", description = "Seconds of readings, one per machine and stream each (default: ${DEFAULT-VALUE}).")
    int seconds;

    @Override
    protected int run(final PrintWriter out) throws Exception {
        final FleetStream fleet = new FleetStream(2026, machines, seconds, machines / 25, machines / 40);
        final KeyedJob<?> job = new MachineHealthJob().job();
        final JobOptions options = workDir.jobOptions();
        final int total = fleet.readings().size();
        out.println("== StreamGrid machine-health demo: " + machines + " machines, temperature, pressure and vibration once a "
                + "second each; " + fleet.incidents().size() + " of them will develop a failure signature");
        try (LocalCluster cluster = workDir.startThreeMembers(out);
             StreamGridClient streamGrid = StreamGridClient.connect(cluster.clientSettings());
             FleetStream.Logs logs = FleetStream.Logs.open(options.ingestDir(), PARTITIONS)) {
            final HazelcastInstance client = streamGrid.hazelcast();
            final Job running = Jobs.submit(client.getJet(), job, options);
            out.println("== job " + job.name() + " submitted (exactly-once, snapshots every " + options.snapshotIntervalMs()
                    + " ms); " + total + " readings will be appended over about 15 s, up to 1.5 s out of order");
            final AtomicInteger shown = new AtomicInteger();
            final Subscription alerts = streamGrid.subscribe(MachineHealthJob.ALERTS, "startTime > 0", new DeltaListener() {
                @Override
                public void onSnapshot(final Map<Object, Object> entries) {
                    out.println("   subscribed to " + MachineHealthJob.ALERTS);
                }

                @Override
                public void onDelta(final Delta delta) {
                    if (delta.kind() != Delta.Kind.LEAVE && shown.incrementAndGet() <= 12) {
                        final PatternAlert alert = (PatternAlert) delta.value();
                        out.printf("   ALERT machine %s: %s, %d ms from first to last reading:%n      %s%n", alert.key(),
                                alert.pattern(), alert.endTime() - alert.startTime(), alert.readings().replace("\n", "\n      "));
                    }
                }
            }, SubscriptionOptions.defaults());

            Demos.appendKillingMidway(cluster, out, total, "readings", (from, to) -> fleet.append(logs, from, to));
            logs.appendEndOfStream();
            out.println("== all " + total + " readings appended and the streams closed; waiting for the job");
            final FleetStream.Check check = Demos.readUntil(out, "the alerts to match the oracle",
                    () -> fleet.check(new HashMap<>(client.<String, PatternAlert>getMap(MachineHealthJob.ALERTS))),
                    FleetStream.Check::passed);
            final int late = client.getMap(job.lateMap()).size();
            out.println("== check: " + check + "; " + late + " readings too late");
            alerts.close();
            running.cancel();
            final boolean passed = check.passed() && late == 0;
            out.println(passed ? "== machine-health demo passed; stopping the cluster" : "== machine-health demo FAILED");
            return passed ? 0 : StreamGridCli.EXIT_FAILED;
        }
    }
}
