package io.streamgrid.perf.bench;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
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
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.perf.BenchContext;
import io.streamgrid.perf.report.LineChart;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static io.streamgrid.perf.bench.ParameterServerBench.*;

/**
 * The second part of {@link ParameterServerBench}: the held-out loss as training goes, plain against
 * staleness-aware asynchronous updates and the synchronous baseline, over the same examples on a paced stream — notes (a table) and a chart
 * beside the results ({@code parameter-server-loss.png}).
 */
final class TrainingLossCurve {
    private TrainingLossCurve() {
    }

    /** Examples a second of the paced stream, and how long it goes on. */
    private static final int PACED_RATE = 40_000;
    private static final int PACED_WORKERS = 4;
    private static final long SAMPLE_MS = 500;

    /**
     * Four workers on a stream paced at {@value #PACED_RATE} examples a second (which the server keeps
     * up with, unlike a backlog), plain, staleness-aware and synchronous updates in turn over the same
     * examples: the held-out loss of the published shards every {@value #SAMPLE_MS} ms, as a table in
     * the notes and a chart. A run lasts until every example was learnt and applied: longer than the
     * stream when training falls behind it (the synchronous rounds' waits).
     */
    static List<String> measure(final BenchContext context, final HazelcastInstance member, final int number)
            throws InterruptedException {
        final List<String> notes = new ArrayList<>();
        final int seconds = context.pick(5, 10);
        final SyntheticExamples stream = new SyntheticExamples(99, FEATURES, ACTIVE, PACED_WORKERS, START_MS);
        final List<LabelledExample> examples = stream.next(PACED_RATE * seconds);
        final List<LabelledExample> heldOut = stream.next(HELD_OUT);
        final double offlineLoss = LogisticRegression.logLoss(OfflineSgd.weights(FEATURES, RATE, examples), heldOut);
        final List<List<double[]>> curves = new ArrayList<>();
        final List<String> staleness = new ArrayList<>();
        for (final Staleness weighting : Staleness.values()) {
            context.progress("loss as training goes: " + weighting + ", " + examples.size() + " examples at " + PACED_RATE + "/s");
            final Paced paced = paced(context, member, examples, heldOut, weighting, number * 10 + weighting.ordinal());
            curves.add(paced.curve());
            staleness.add(String.format(Locale.ROOT, "%s p50 %s, p99 %s", weighting, percentile(paced.staleness(), 0.5),
                    percentile(paced.staleness(), 0.99)));
        }
        final StringBuilder table = new StringBuilder(String.format(Locale.ROOT, "Held-out loss as training goes, %d workers on a "
                + "stream of %,d examples/s (offline SGD over all of them: %.4f; staleness %s). Seconds since the workers' "
                + "submission: loss with plain / staleness-aware / synchronous updates —", PACED_WORKERS, PACED_RATE, offlineLoss,
                String.join("; ", staleness)));
        final int points = curves.stream().mapToInt(List::size).min().orElse(0);
        for (int i = 0; i < points; i++) {
            table.append(String.format(Locale.ROOT, " %.1f s: %.4f / %.4f / %.4f;", curves.get(0).get(i)[0], curves.get(0).get(i)[1],
                    curves.get(1).get(i)[1], curves.get(2).get(i)[1]));
        }
        for (int c = 0; c < curves.size(); c++) {
            final double[] end = curves.get(c).get(curves.get(c).size() - 1);
            table.append(String.format(Locale.ROOT, " %s done after %.1f s at %.4f;", Staleness.values()[c], end[0], end[1]));
        }
        notes.add(table.toString());
        context.progress(table.toString());
        final String chart = "parameter-server-loss.png";
        final double longest = curves.stream().mapToDouble(curve -> curve.get(curve.size() - 1)[0]).max().orElse(1);
        LineChart.draw("held-out loss as training goes: " + PACED_WORKERS + " workers, " + PACED_RATE + " examples/s",
                "seconds since the workers' submission", "held-out logistic loss",
                List.of(new LineChart.Curve("plain asynchronous", curves.get(0)),
                        new LineChart.Curve("staleness-aware (rate / τ)", curves.get(1)),
                        new LineChart.Curve("synchronous (" + PUSH_EVERY + "-step rounds)", curves.get(2)),
                        new LineChart.Curve(String.format(Locale.ROOT, "offline SGD, all examples: %.4f", offlineLoss),
                                List.of(new double[]{0, offlineLoss}, new double[]{longest, offlineLoss}))),
                // A loss above 1 (a coin toss is 0.69) is a spike of plain asynchronous updates: drawn at 1, not to scale.
                1.0, context.resultsDir().resolve(chart));
        notes.add("![held-out loss as training goes](results/" + chart + ")");
        return notes;
    }

    /** A paced run: (seconds, held-out loss) every sample, and the staleness counts at the end. */
    private record Paced(List<double[]> curve, long[] staleness) {
    }

    private static Paced paced(final BenchContext context, final HazelcastInstance member, final List<LabelledExample> examples,
                               final List<LabelledExample> heldOut, final Staleness staleness, final int number)
            throws InterruptedException {
        final ParameterModel model = new ParameterModel("bench-paced-" + number, FEATURES, SHARDS, PACED_WORKERS, RATE, staleness,
                FETCH_EVERY, PUSH_EVERY);
        final Path ingest = context.workDir().resolve("run-" + number);
        final Map<Long, WorkerProgress> progress = member.getMap(model.workersMap());
        final Map<Long, ShardValue> shards = member.getMap(model.shardsMap());
        final List<double[]> curve = new ArrayList<>();
        try (SchemaLog log = SchemaLog.open(SchemaLog.directoryOf(ingest, TrainingEvents.EXAMPLE.name()), TrainingEvents.EXAMPLE,
                PARTITIONS);
             SchemaLog updates = SchemaLog.open(SchemaLog.directoryOf(ingest, TrainingEvents.UPDATE.name()), TrainingEvents.UPDATE,
                     PARTITIONS)) {
            final JobOptions options = JobOptions.of(ingest).withLocalParallelism(2);
            final Job serverJob = Jobs.submit(member.getJet(), new ShardServerJob(model).job(), options);
            Job workerJob = null;
            try {
                awaitRunning(serverJob);
                workerJob = Jobs.submit(member.getJet(), new WorkerJob(model).job(), options);
                final long start = System.nanoTime();
                final int batch = PACED_RATE / 100;
                long nextSample = 0;
                for (int from = 0; from < examples.size(); from += batch) {
                    SyntheticExamples.append(log, examples.subList(from, Math.min(from + batch, examples.size())));
                    final long dueNanos = start + (from + batch) * 1_000_000_000L / PACED_RATE;
                    final long elapsedMs = (System.nanoTime() - start) / 1_000_000;
                    if (elapsedMs >= nextSample) {
                        curve.add(new double[]{elapsedMs / 1000.0,
                                LogisticRegression.logLoss(ParameterServer.weights(model, Map.copyOf(shards)), heldOut)});
                        nextSample += SAMPLE_MS;
                    }
                    Thread.sleep(Math.max(0, (dueNanos - System.nanoTime()) / 1_000_000));
                }
                log.appendEndOfStream();
                while (progress.values().stream().mapToLong(WorkerProgress::steps).sum() < examples.size()
                        || progress.values().stream().mapToLong(WorkerProgress::updatesPushed).sum()
                        != shards.values().stream().mapToLong(ShardValue::version).sum()) {
                    Thread.sleep(10);
                }
                final Map<Long, ShardValue> result = Map.copyOf(shards);
                curve.add(new double[]{(System.nanoTime() - start) / 1e9,
                        LogisticRegression.logLoss(ParameterServer.weights(model, result), heldOut)});
                return new Paced(curve, ParameterServer.stalenessCounts(result));
            } finally {
                stop(member, model, workerJob, serverJob);
            }
        }
    }

}
