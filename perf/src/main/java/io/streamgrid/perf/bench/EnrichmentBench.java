package io.streamgrid.perf.bench;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.JetService;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.config.JobConfig;
import com.hazelcast.jet.config.ProcessingGuarantee;
import com.hazelcast.jet.pipeline.Pipeline;
import com.hazelcast.jet.pipeline.Sources;
import com.hazelcast.map.IMap;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.examples.kappa.AccessLogs;
import io.streamgrid.examples.kappa.UserActivity;
import io.streamgrid.examples.kappa.UserActivityJob;
import io.streamgrid.examples.kappa.UserProfile;
import io.streamgrid.jobs.ingest.AccessLogLine;
import io.streamgrid.jobs.ingest.LoadReport;
import io.streamgrid.jobs.ingest.SchemaLoader;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.perf.BenchContext;
import io.streamgrid.perf.Benchmark;
import io.streamgrid.perf.report.BenchResult;
import io.streamgrid.perf.report.Environment;
import io.streamgrid.perf.report.GoalCheck;
import io.streamgrid.perf.report.Measurement;
import io.streamgrid.perf.report.Ratio;

import java.io.IOException;
import java.io.Serializable;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The Kappa enrichment end to end, from raw access-log lines to the serving map: StreamGrid's way
 * ({@code ingest load --format accesslog} into the schema log, and {@link UserActivityJob}, a keyed
 * job with a lookup in {@code dim.users}, writing {@code state.user-activity}) against the same in
 * one plain Jet pipeline (the file's lines, parsed by the same parser, joined with
 * the keyed {@code mapUsingIMap}, rolled up per user with {@code mapStateful}, written to the map in ordered batches).
 *
 * <p>Design: the lines are generated once (seeded; 0.5 % malformed, which both refuse); both
 * subjects start from the file and an empty serving map, and the clock runs from the start (our
 * job's submission, then the load in the benchmark's thread while the job follows the log; Jet's
 * job submission) until the serving map holds every valid request. Then the map must equal the
 * oracle ({@link UserActivityJob#expected}) exactly, or the run fails.
 */
public final class EnrichmentBench implements Benchmark {
    static final int USERS = 2_000;
    static final int PARTITIONS = 2;
    static final int PARALLELISM = 2;
    /** No state.* name: the reference map gets Hazelcast's defaults, without the event journal state maps carry. */
    static final String JET_ACTIVITY = "jet-user-activity";
    private static final AtomicInteger RUN_IDS = new AtomicInteger();

    @Override
    public String name() {
        return "enrichment";
    }

    @Override
    public String title() {
        return "Kappa enrichment end to end (access-log lines → serving map): ingest load + keyed job with a lookup vs one plain "
                + "Jet pipeline with mapUsingIMap";
    }

    @Override
    public BenchResult run(final BenchContext context) throws Exception {
        final int runs = context.pick(3, 5);
        final int lines = context.pick(200_000, 1_000_000);
        final Path input = Files.createDirectories(context.workDir().resolve("input"));
        final Path file = input.resolve("access.log");
        context.progress("generating " + lines + " access-log lines into " + file);
        final Truth truth = generate(file, lines);
        final double[] ours = new double[runs];
        final double[] jet = new double[runs];
        // The plain-Jet baseline reads its input with Jet's file source, which members refuse unless allowed.
        final Path config = Files.writeString(context.workDir().resolve("allow-file-source.yaml"), "jobs:\n  allow-io-connectors: true\n");
        try (EmbeddedGrid grid = EmbeddedGrid.start(context.workDir().resolve("member"), java.util.Optional.of(config))) {
            final HazelcastInstance member = grid.member();
            member.getMap(UserActivityJob.USERS).putAll(truth.users);
            context.progress("warm-up: StreamGrid");
            runOurs(context, member, file, truth);
            context.progress("warm-up: plain Jet");
            runJet(member, input, truth);
            for (int run = 0; run < runs; run++) {
                ours[run] = runOurs(context, member, file, truth);
                context.progress(String.format(Locale.ROOT, "run %d/%d StreamGrid: %,.0f lines/s", run + 1, runs, ours[run]));
                jet[run] = runJet(member, input, truth);
                context.progress(String.format(Locale.ROOT, "run %d/%d plain Jet: %,.0f lines/s", run + 1, runs, jet[run]));
            }
        }
        context.emptyWorkDir();
        final List<Measurement> m = List.of(
                Measurement.of("StreamGrid: ingest load --format accesslog + keyed job with a lookup (member-local replica)", "ours",
                        "lines/s", ours),
                Measurement.of("plain Jet: file source, same parser, mapUsingIMap, mapStateful, putAll sink", "reference", "lines/s",
                        jet));
        final double o = m.get(0).median();
        final double j = m.get(1).median();
        return new BenchResult(name(), title(), String.format(Locale.ROOT, "%,d access-log lines (Common and Combined format, "
                        + "seeded; %,d malformed, refused by both) of %,d users, all in dim.users (an IMap of UserProfile); the "
                        + "serving map holds one UserActivity per user (requests, bytes, 5xx, last path and time, country and "
                        + "segment). One embedded member (Jet, 2 cooperative threads), local parallelism %d, no processing "
                        + "guarantee for either. Lines/s = lines / time from the start until the serving map holds every valid "
                        + "request (the last line's user polled every 5 ms, then the whole map; it must then equal the "
                        + "oracle). Ours loads in the benchmark's thread (one parsing thread, as `ingest load`), into a schema log of %d partitions, while the job "
                        + "follows it. One warm-up run per subject, then %d runs, subjects alternating.", lines, truth.malformed,
                        USERS, PARALLELISM, PARTITIONS, runs),
                context.pick("quick", "full"), Instant.now().toString(), Environment.current(), m, List.of(),
                List.of(Ratio.of("StreamGrid / plain Jet with mapUsingIMap, lines/s", o, j, "above 1: we are faster; the goal is ≥ 5")),
                List.of(GoalCheck.of("Enrichment end to end ≥ 5× Jet mapUsingIMap's events/s", o >= 5 * j, String.format(Locale.ROOT,
                        "%.2f× (%,.0f vs %,.0f lines/s)", o / j, o, j))),
                List.of("Both parse with the same code (AccessLogLine: a regular expression per line, the request time read by position), "
                                + "in one thread each (Jet's parsing stage at local parallelism 1 keeps each user's lines in order "
                                + "on the keyed edges after it; the last path and time depend on that order).",
                        "Ours looks users up in a member-local replica of dim.users; Jet's mapUsingIMap reads the map per line "
                                + "(member-local here; across members most reads would be remote).",
                        "Both serving maps are written in batches coalesced per key with one synchronous putAll, by one "
                                + "processor (our state writer; for Jet a SinkBuilder sink). Jet's own Sinks.map keeps several "
                                + "putAllAsync in flight and may apply two writes of a key out of order (hazelcast-jet#2299): with it "
                                + "the serving map kept an older value for 1–2 users in most runs, failing the oracle."));
    }

    /** The generated file's truth: the dimension, the oracle's serving map, counts, and the user of the last valid line. */
    record Truth(Map<String, UserProfile> users, Map<String, UserActivity> expected, long requests, long malformed, String lastUser) {
    }

    static Truth generate(final Path file, final int lines) throws IOException {
        final SplittableRandom random = new SplittableRandom(20_261_201L);
        final Map<String, UserProfile> users = new HashMap<>();
        for (int u = 0; u < USERS; u++) {
            final String user = "user-" + u;
            users.put(user, new UserProfile(user, new String[] {"DE", "FR", "US", "JP", "BR"}[u % 5], u % 3 == 0 ? "enterprise"
                    : "consumer", 19_000 + u));
        }
        final List<AccessLogs.Request> valid = new ArrayList<>(lines);
        long malformed = 0;
        long time = Instant.parse("2026-12-01T00:00:00Z").toEpochMilli();
        try (var out = Files.newBufferedWriter(file)) {
            for (int i = 0; i < lines; i++) {
                time += 1_000L * random.nextInt(0, 2);
                if (random.nextInt(200) == 0) {
                    out.write("garbage, no request " + i + "\n");
                    malformed++;
                    continue;
                }
                final AccessLogs.Request request = new AccessLogs.Request("10.2." + random.nextInt(250) + "." + random.nextInt(250),
                        "user-" + random.nextInt(USERS), time, random.nextInt(4) == 0 ? "POST" : "GET", "/items/" + random.nextInt(5_000),
                        random.nextInt(50) == 0 ? 503 : 200, random.nextInt(1, 40_000));
                valid.add(request);
                out.write(request.line(i % 2 == 0));
                out.write('\n');
            }
        }
        return new Truth(users, UserActivityJob.expected(valid, users), valid.size(), malformed, valid.get(valid.size() - 1).user());
    }

    static double runOurs(final BenchContext context, final HazelcastInstance member, final Path file, final Truth truth) {
        final IMap<String, UserActivity> activity = member.getMap(UserActivityJob.ACTIVITY);
        activity.destroy();
        final Path ingest = context.workDir().resolve("ingest-" + RUN_IDS.incrementAndGet());
        final Path logDir = SchemaLog.directoryOf(ingest, UserActivityJob.ACCESS.name());
        if (Files.exists(logDir)) {
            throw new IllegalStateException(logDir + " exists: each run needs a log of its own (empty the work directory)");
        }
        final KeyedJob<?> job = new UserActivityJob().job();
        final long start = System.nanoTime();
        final LoadReport report;
        final Job running;
        try (SchemaLog log = SchemaLog.open(logDir, UserActivityJob.ACCESS, PARTITIONS)) {
            running = Jobs.submit(member.getJet(), job, JobOptions.of(ingest).withLocalParallelism(PARALLELISM), null,
                    config("bench-enrichment"));
            report = new SchemaLoader(UserActivityJob.ACCESS).load(file, SchemaLoader.Format.ACCESSLOG, log,
                    ingest.resolve(UserActivityJob.ACCESS.name() + ".rejected"), line -> { });
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        if (report.rejected() != truth.malformed) {
            throw new IllegalStateException("the load refused " + report.rejected() + " lines, the generator wrote " + truth.malformed
                    + " malformed ones");
        }
        final double rate = awaitServed(member.getMap(UserActivityJob.ACTIVITY), truth, running, start, report.lines());
        running.cancel();
        return rate;
    }

    static double runJet(final HazelcastInstance member, final Path input, final Truth truth) {
        final IMap<String, UserActivity> activity = member.getMap(JET_ACTIVITY);
        activity.destroy();
        final Pipeline pipeline = Pipeline.create();
        pipeline.readFrom(Sources.filesBuilder(input.toAbsolutePath().toString()).glob("access.log").build())
                .map(EnrichmentBench::parse).setLocalParallelism(1) // one parsing thread, as ours; and a user's lines stay in order
                .groupingKey(Line::user)
                .mapUsingIMap(UserActivityJob.USERS, (Line line, UserProfile profile) -> profile == null ? null
                        : new Enriched(line, profile.country(), profile.segment()))
                .groupingKey(enriched -> enriched.line().user())
                .mapStateful(() -> new long[3], (long[] totals, String user, Enriched e) -> {
                    totals[0]++;
                    totals[1] += e.line().bytes();
                    totals[2] += e.line().status() >= 500 ? 1 : 0;
                    return new UserActivity(user, e.country(), e.segment(), totals[0], totals[1], totals[2], e.line().path(),
                            e.line().time());
                })
                .writeTo(OrderedMapSink.of(JET_ACTIVITY, UserActivity::user));
        final long start = System.nanoTime();
        final Job running = member.getJet().newJob(pipeline, config("bench-jet-enrichment"));
        final long lines = truth.requests + truth.malformed;
        return awaitServed(member.getMap(JET_ACTIVITY), truth, running, start, lines);
    }

    /** One parsed line as the plain Jet pipeline carries it; null for a line that is not an access-log line. */
    record Line(String user, long time, String path, int status, long bytes) implements Serializable {
    }

    record Enriched(Line line, String country, String segment) implements Serializable {
    }

    static Line parse(final String text) {
        final Map<String, Object> values;
        try {
            values = AccessLogLine.parse(text);
        } catch (final IllegalArgumentException e) {
            return null; // Jet drops a null: the malformed line is refused
        }
        final Object bytes = values.get("bytes");
        return new Line((String) values.get("user"), (Long) values.get("ts"), (String) values.get("path"),
                Integer.parseInt((String) values.get("status")), bytes == null ? 0 : Long.parseLong((String) bytes));
    }

    /**
     * Waits until the serving map holds every valid request, then checks it equals the oracle;
     * returns lines/s from {@code startNanos}. Cheap first: one get per poll, until the user of the
     * last valid line holds its final value (a user's updates land in order in both subjects);
     * then the whole map is summed (2,000 values deserialised per poll, a real load on 2 cores
     * when done from the start) until it adds up.
     */
    private static double awaitServed(final IMap<String, UserActivity> served, final Truth truth, final Job job, final long startNanos,
                                      final long lines) {
        final long deadline = startNanos + Duration.ofSeconds(120 + lines / 5_000).toNanos();
        final UserActivity last = truth.expected.get(truth.lastUser);
        while (!last.equals(served.get(truth.lastUser)) || requests(served) < truth.requests) {
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(String.format(Locale.ROOT, "%s did not finish in time: %,d of %,d requests served; "
                        + "e.g. %s", job.getName(), requests(served), truth.requests, differences(served, truth)));
            }
            if (job.getStatus() == com.hazelcast.jet.core.JobStatus.FAILED) {
                job.join(); // throws the job's failure
            }
            sleep(5);
        }
        final long elapsed = System.nanoTime() - startNanos;
        final Map<String, UserActivity> found = Map.copyOf(served);
        if (!found.equals(truth.expected)) {
            throw new IllegalStateException(job.getName() + ": the serving map differs from the oracle (" + found.size() + " users, "
                    + truth.expected.size() + " expected); e.g. " + differences(served, truth));
        }
        return lines * 1e9 / elapsed;
    }

    /** The first few users whose served activity is not the oracle's, with both. */
    private static List<String> differences(final IMap<String, UserActivity> served, final Truth truth) {
        final List<String> differences = new ArrayList<>();
        for (final Map.Entry<String, UserActivity> expected : truth.expected.entrySet()) {
            final UserActivity found = served.get(expected.getKey());
            if (!expected.getValue().equals(found) && differences.size() < 3) {
                differences.add("expected " + expected.getValue() + ", found " + found);
            }
        }
        return differences;
    }

    private static long requests(final IMap<String, UserActivity> served) {
        long sum = 0;
        for (final UserActivity a : served.values()) {
            sum += a.requests();
        }
        return sum;
    }

    private static void sleep(final long millis) {
        try {
            Thread.sleep(millis);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    private static JobConfig config(final String name) {
        return new JobConfig().setName(name + "-" + RUN_IDS.incrementAndGet()).setProcessingGuarantee(ProcessingGuarantee.NONE);
    }
}
