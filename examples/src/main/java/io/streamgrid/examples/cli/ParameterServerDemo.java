package io.streamgrid.examples.cli;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import io.streamgrid.cli.ClusterDemo;
import io.streamgrid.cli.Demos;
import io.streamgrid.cli.StreamGridCli;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.examples.paramserver.LabelledExample;
import io.streamgrid.examples.paramserver.LogisticRegression;
import io.streamgrid.examples.paramserver.OfflineSgd;
import io.streamgrid.examples.paramserver.ParameterModel;
import io.streamgrid.examples.paramserver.ParameterServer;
import io.streamgrid.examples.paramserver.ShardServerJob;
import io.streamgrid.examples.paramserver.ShardValue;
import io.streamgrid.examples.paramserver.Staleness;
import io.streamgrid.examples.paramserver.SyntheticExamples;
import io.streamgrid.examples.paramserver.TrainingEvents;
import io.streamgrid.examples.paramserver.WorkerJob;
import io.streamgrid.examples.paramserver.WorkerProgress;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.pipeline.JobOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code streamgrid demo parameter-server}: the asynchronous parameter server (workers and shards as
 * keyed jobs, decision record 0015) on three member processes: four workers learn a logistic
 * regression from a labelled stream appended while they run, the loss on held-out examples printed
 * as it falls, a member killed with SIGKILL mid-stream; at the end every update the workers pushed
 * must have been applied once, and the model must have learnt (a held-out loss at least 0.02 below
 * an untrained model's). Exit 0 only then. The gap to offline SGD over the same examples is printed,
 * not judged: three member processes on a small machine put the workers' copies hundreds of updates
 * behind the server, and the restart after the kill leaves a backlog the workers run ahead on —
 * asynchronous SGD's staleness, which ParameterServerTest bounds on one member.
 */
@Command(name = "parameter-server", mixinStandardHelpOptions = true,
        description = {"Run the asynchronous parameter server (Downpour SGD) on 3 members: 4 workers learn from a stream,",
                "updates applied on the shards' members with their staleness, a member killed mid-stream; check that every",
                "update was applied once and that the model learnt; print its loss beside offline SGD's."})
public final class ParameterServerDemo extends ClusterDemo {
    private static final int PARTITIONS = 6;
    private static final int WORKERS = 4;
    /** The held-out loss of an untrained model (every weight 0: p = ½). */
    private static final double UNTRAINED = Math.log(2);
    /** How far below it the model must come. */
    private static final double LEARNT = 0.02;

    @Option(names = "--examples", defaultValue = "120000", description = "Labelled examples streamed (default: ${DEFAULT-VALUE}).")
    int count;

    @Option(names = "--staleness-aware", negatable = true, defaultValue = "true",
            description = "Divide the learning rate by each update's staleness (default: ${DEFAULT-VALUE}).")
    boolean stalenessAware;

    @Option(names = "--synchronous", description = "Train in synchronous rounds instead, the baseline: workers wait for each other at "
            + "every push (overrides --staleness-aware).")
    boolean synchronous;

    @Override
    protected int run(final PrintWriter out) throws Exception {
        final ParameterModel model = new ParameterModel("demo", 4_096, 16, WORKERS, 0.05,
                synchronous ? Staleness.SYNCHRONOUS : stalenessAware ? Staleness.DIVIDES_RATE : Staleness.IGNORED, 8, 8);
        final SyntheticExamples stream = new SyntheticExamples(2026, model.features(), 10, WORKERS, System.currentTimeMillis());
        final List<LabelledExample> examples = stream.next(count);
        final List<LabelledExample> heldOut = stream.next(5_000);
        final double offlineLoss = LogisticRegression.logLoss(OfflineSgd.weights(model.features(), model.learningRate(), examples), heldOut);
        final KeyedJob<?> workers = new WorkerJob(model).job();
        final KeyedJob<?> server = new ShardServerJob(model).job();
        out.println("== StreamGrid parameter server demo: " + WORKERS + " workers, " + count + " labelled examples over "
                + model.features() + " hashed features in " + model.shards() + " shards; " + (synchronous ? "synchronous rounds of "
                + model.pushEvery() + " steps" : stalenessAware ? "staleness-aware updates (rate / τ)" : "plain asynchronous updates")
                + "; offline SGD over the same examples "
                + String.format(Locale.ROOT, "reaches a held-out loss of %.4f", offlineLoss));
        final JobOptions options = workDir.jobOptions();
        try (LocalCluster cluster = workDir.startThreeMembers(out);
             SchemaLog log = SchemaLog.open(Jobs.logDirectory(workers, options), TrainingEvents.EXAMPLE, PARTITIONS);
             SchemaLog updates = SchemaLog.open(Jobs.logDirectory(server, options), TrainingEvents.UPDATE, PARTITIONS)) {
            final HazelcastInstance client = cluster.newClient();
            final Job serverJob = Jobs.submit(client.getJet(), server, options);
            final Job workerJob = Jobs.submit(client.getJet(), workers, options);
            out.println("== jobs " + server.name() + " and " + workers.name() + " submitted (exactly-once, snapshots every "
                    + options.snapshotIntervalMs() + " ms); the examples will be appended over about 15 s");
            final Map<Long, ShardValue> shards = client.getMap(model.shardsMap());
            final Map<Long, WorkerProgress> progress = client.getMap(model.workersMap());
            final int[] reported = {0};
            Demos.appendKillingMidway(cluster, out, count, "examples", (from, to) -> {
                SyntheticExamples.append(log, examples.subList(from, to));
                if (to * 5 / count > reported[0]) {
                    reported[0] = to * 5 / count;
                    report(out, model, shards, progress, heldOut);
                }
            });
            log.appendEndOfStream();
            out.println("== all " + count + " examples appended; waiting for the workers and the server");
            Demos.readUntil(out, "every example learnt and every update applied",
                    () -> totals(shards, progress), t -> t[0] == count && t[1] == t[2]);
            report(out, model, shards, progress, heldOut);
            final Map<Long, ShardValue> result = new HashMap<>(shards);
            long lost = 0;
            long duplicated = 0;
            long pushed = 0;
            for (final WorkerProgress worker : progress.values()) {
                final long applied = result.values().stream().mapToLong(s -> s.appliedByWorker()[(int) worker.worker()]).sum();
                pushed += worker.updatesPushed();
                lost += Math.max(0, worker.updatesPushed() - applied);
                duplicated += Math.max(0, applied - worker.updatesPushed());
            }
            final long found = result.values().stream().mapToLong(ShardValue::version).sum();
            final double loss = LogisticRegression.logLoss(ParameterServer.weights(model, result), heldOut);
            out.printf(Locale.ROOT, "== check: %d updates expected (pushed by the workers), %d found (applied), %d lost, %d duplicated; "
                    + "held-out loss %.4f (untrained %.4f; offline SGD over the same examples %.4f, not judged: %s)%n", pushed, found, lost,
                    duplicated, loss, UNTRAINED, offlineLoss, synchronous ? "synchronous rounds sum 4 workers' gradients a step"
                            : "the gap is the staleness above");
            workerJob.cancel();
            serverJob.cancel();
            final boolean passed = lost + duplicated == 0 && found == pushed && loss < UNTRAINED - LEARNT;
            out.println(passed ? "== parameter server demo passed; stopping the cluster" : "== parameter server demo FAILED");
            return passed ? 0 : StreamGridCli.EXIT_FAILED;
        }
    }

    /** Examples learnt, updates pushed, updates applied. */
    private static long[] totals(final Map<Long, ShardValue> shards, final Map<Long, WorkerProgress> progress) {
        return new long[]{progress.values().stream().mapToLong(WorkerProgress::steps).sum(),
                progress.values().stream().mapToLong(WorkerProgress::updatesPushed).sum(),
                shards.values().stream().mapToLong(ShardValue::version).sum()};
    }

    private static void report(final PrintWriter out, final ParameterModel model, final Map<Long, ShardValue> shards,
                               final Map<Long, WorkerProgress> progress, final List<LabelledExample> heldOut) {
        final Map<Long, ShardValue> now = new HashMap<>(shards);
        final long[] totals = totals(shards, progress);
        final long[] staleness = ParameterServer.stalenessCounts(now);
        out.printf(Locale.ROOT, "   %,d examples learnt, %,d updates applied (%s); held-out loss %.4f%n", totals[0], totals[2],
                median(staleness), LogisticRegression.logLoss(ParameterServer.weights(model, now), heldOut));
        out.flush();
    }

    private static String median(final long[] counts) {
        final int bucket = ParameterServer.stalenessBucketAt(counts, 0.5);
        return bucket < 0 ? "none yet"
                : "median staleness " + (bucket < 32 ? String.valueOf(bucket) : "≥ " + ShardValue.lowestStalenessOf(bucket));
    }
}
