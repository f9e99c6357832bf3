package io.streamgrid.perf.bench.nexmark;

import com.hazelcast.jet.JetService;
import io.streamgrid.jobs.ingest.KafkaLogs;
import io.streamgrid.jobs.kafka.KafkaBroker;
import io.streamgrid.jobs.pipeline.JobDefinition;
import io.streamgrid.nexmark.NexmarkQuery;
import io.streamgrid.nexmark.ResultFingerprint;
import io.streamgrid.perf.BenchContext;
import io.streamgrid.perf.bench.ProcessCpu;
import io.streamgrid.perf.report.GoalCheck;
import io.streamgrid.perf.report.Measurement;
import io.streamgrid.perf.report.Ratio;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * NEXMark with StreamGrid's input in Kafka (issue 49's "and to Kafka"): the same events produced
 * into the three schema logs as topics on a real broker (Apache Kafka, KRaft, a child JVM of its
 * own), each query run once over them by the same jobs, results checked equal to Flink's. The
 * per-core figure counts the broker's CPU with StreamGrid's: reading from Kafka is work the broker
 * does for the query. Its own phase after the other engines' runs, so the broker's JVM is not beside
 * them. Neither Flink nor plain Jet reads Kafka here (no Jet Kafka connector is published for
 * Hazelcast 5.7; Flink's newest is built for Flink 2.2): their figures stay those from memory and
 * Chronicle.
 */
final class NexmarkOverKafka {
    private static final String TOPIC_PREFIX = "nexmark.";
    /** How long a run's results must stay unchanged before it is taken as done without matching Flink's. */
    private static final long QUIET_MS = 15_000;

    /** What a query computed over the other inputs: Flink's result (the one to equal), and the figures to compare with. */
    record Baseline(ResultFingerprint flinkResult, double streamGridOverChronicleEventsPerSecond, double flinkEventsPerCpuSecond) {
    }

    private NexmarkOverKafka() {
    }

    /**
     * Starts a broker, writes {@code events} of {@code setup}'s events into its topics, runs each
     * query of {@code baselines} on {@code jet} over them once (after one warm-up run of the first,
     * not counted) and adds the figures, ratios, one goal (every result equals Flink's) and notes.
     */
    static void run(final BenchContext context, final JetService jet, final long events, final NexmarkSetup setup,
                    final Map<NexmarkQuery, Baseline> baselines, final List<Measurement> measurements, final List<Ratio> ratios,
                    final List<GoalCheck> goals, final List<String> notes) {
        if (baselines.isEmpty()) {
            return;
        }
        final List<String> differing = new ArrayList<>();
        try {
            runAll(context, jet, events, setup, baselines, measurements, ratios, differing);
        } catch (final RuntimeException e) {
            // The other engines' figures of this run stand: a failure here fails this phase's goal, not the benchmark.
            context.progress("StreamGrid over Kafka FAILED: " + e);
            differing.add("the phase failed: " + e.getMessage());
        }
        goals.add(GoalCheck.of("StreamGrid over Kafka computes Flink's result on every query", differing.isEmpty(),
                differing.isEmpty() ? baselines.size() + " of " + baselines.size() + " queries equal" : "DIFFER or FAILED: "
                        + String.join("; ", differing)));
        notes.add("Input in Kafka: the same events produced into topics " + TOPIC_PREFIX + "* (one broker, KRaft, replication 1, "
                + setup.parallelism() + " partitions each); each query once after one warm-up run; the per-core figure counts "
                + "the broker's CPU with StreamGrid's. Flink and plain Jet do not read Kafka here (Maven Central has no Jet Kafka "
                + "connector for Hazelcast 5.7, and Flink's newest, 5.0.0-2.2, is built for Flink 2.2), so the ratio against Flink "
                + "is against its events in memory.");
    }

    /** The phase's runs; a query whose result differs is added to {@code differing}, a query that fails throws. */
    private static void runAll(final BenchContext context, final JetService jet, final long events, final NexmarkSetup setup,
                               final Map<NexmarkQuery, Baseline> baselines, final List<Measurement> measurements,
                               final List<Ratio> ratios, final List<String> differing) {
        try (KafkaBroker broker = KafkaBroker.start(context.workDir().resolve("kafka"), context::progress)) {
            final InputLogs input = InputLogs.kafka(new KafkaLogs(broker.bootstrapServers(), TOPIC_PREFIX, (short) 1),
                    context.workDir().resolve("ingest-kafka"));
            context.progress("writing the " + events + " NEXMark events into " + input.describe());
            NexmarkLogs.write(input, setup.generator(), events, setup.parallelism(), context::progress);
            final long brokerPid = broker.pid();
            final NexmarkQuery first = baselines.keySet().iterator().next();
            final List<JobDefinition> firstJobs = StreamGridQueries.jobs(first).orElseThrow();
            final InJvmRun warmUp = InJvmRun.run(jet, ResultRows.STREAMGRID, baselines.get(first).flinkResult(),
                    j -> NexmarkBench.submitAll(j, firstJobs, input, setup), QUIET_MS);
            context.progress(String.format(Locale.ROOT, "%s StreamGrid over Kafka warm-up run (not counted): %,.0f events/s",
                    first, warmUp.eventsPerSecond(events)));
            for (final Map.Entry<NexmarkQuery, Baseline> entry : baselines.entrySet()) {
                final NexmarkQuery query = entry.getKey();
                final Baseline baseline = entry.getValue();
                final List<JobDefinition> jobs = StreamGridQueries.jobs(query).orElseThrow();
                final InJvmRun run = InJvmRun.run(jet, ResultRows.STREAMGRID, baseline.flinkResult(),
                        j -> NexmarkBench.submitAll(j, jobs, input, setup), QUIET_MS,
                        () -> ProcessCpu.own() + ProcessCpu.of(brokerPid, "the Kafka broker"));
                final boolean equal = run.result().equals(baseline.flinkResult());
                if (!equal) {
                    differing.add(query + " (Flink " + baseline.flinkResult() + ", StreamGrid over Kafka " + run.result() + ")");
                }
                final double rate = run.eventsPerSecond(events);
                final double perCore = run.eventsPerCpuSecond(events);
                context.progress(String.format(Locale.ROOT, "%s StreamGrid over Kafka: %,.0f events/s, %,.0f per CPU second "
                        + "(the broker's CPU counted); %s%s", query, rate, perCore, run.result(),
                        equal ? " (equals Flink's)" : " — DIFFERS from Flink's " + baseline.flinkResult()));
                final String q = query + " ";
                measurements.add(Measurement.of(q + "StreamGrid, input in Kafka", "ours", "events/s", rate));
                measurements.add(Measurement.of(q + "StreamGrid, input in Kafka", "ours", "events/s per core (with the broker's)",
                        perCore));
                ratios.add(Ratio.of(q + "StreamGrid over Kafka / over Chronicle, events/s", rate,
                        baseline.streamGridOverChronicleEventsPerSecond(), "what reading Kafka costs against the local log"));
                ratios.add(Ratio.of(q + "StreamGrid over Kafka / Flink from memory, events/s per core", perCore,
                        baseline.flinkEventsPerCpuSecond(), "the broker's CPU counted on our side; no goal"));
            }
        }
    }
}
