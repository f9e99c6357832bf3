package io.streamgrid.cli;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.JobStatus;
import com.hazelcast.nio.serialization.genericrecord.GenericRecord;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cluster.TestWorkDir;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.BuiltInLogs;
import io.streamgrid.jobs.ingest.EventGenerator;
import io.streamgrid.jobs.ingest.GeneratorSpec;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.keyed.BucketCounts;
import io.streamgrid.jobs.keyed.VisitStream;
import io.streamgrid.jobs.pipeline.JobMetricNames;
import io.streamgrid.node.impl.JobFigures;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Design of these tests: a job class is compiled at test time into a jar that is on no class path
 * (not the test's, not the members'), submitted with {@code streamgrid job submit --jar --class} to
 * member processes, and its results — the user's own record type — read from a client that lacks
 * the class. With code upload off the same submission is refused naming the setting, and nothing
 * is deployed. The class-level mistakes are refused before any cluster is contacted.
 */
class UserJarTest {
    private static final String SOURCE = """
            package com.acme;

            import io.streamgrid.jobs.keyed.*;
            import io.streamgrid.jobs.schema.*;

            /** Visits and amount per user, kept as the user's own record type. */
            public final class VisitTotals implements StreamGridJob {
                public static final EventSchema VISIT = EventSchema.builder("visit").stringKey("user", 24).eventTime("ts")
                        .float64("amount").build();

                public record Total(String user, long visits, long amount) {
                }

                public static final class Count implements KeyedFunction<long[]> {
                    @Override
                    public void onEvent(final SchemaRecord event, final KeyedContext<long[]> context) {
                        long[] state = context.state();
                        if (state == null) {
                            state = new long[2];
                            context.setState(state);
                        }
                        state[0]++;
                        state[1] += (long) event.getDouble(event.layout().indexOf("amount"));
                        context.put("state.visit-totals", context.stringKey(), new Total(context.stringKey(), state[0], state[1]));
                    }
                }

                @Override
                public KeyedJob<?> job() {
                    return KeyedJob.<long[]>builder("visit-totals", VISIT).function(new Count()).state(StateCodec.longs(2))
                            .writes("state.visit-totals").build();
                }
            }
            """;

    /** A windowed job of the user's: requests per source IP and minute, over the built-in request schema. */
    private static final String WINDOWED_SOURCE = """
            package com.acme;

            import io.streamgrid.jobs.event.EventType;
            import io.streamgrid.jobs.keyed.StreamGridJob;
            import io.streamgrid.jobs.pipeline.*;
            import io.streamgrid.jobs.schema.*;
            import io.streamgrid.jobs.window.*;
            import java.io.*;

            public final class RequestsPerMinute implements StreamGridJob {
                public record Minute(long ip, long start, long requests) {
                }

                public static final class Sum implements WindowAggregation<long[]> {
                    public long[] create() { return new long[1]; }
                    public void accumulate(final long[] sum, final SchemaRecord event) { sum[0]++; }
                    public void combine(final long[] target, final long[] other) { target[0] += other[0]; }
                    public void write(final long[] sum, final DataOutput out) throws IOException { out.writeLong(sum[0]); }
                    public long[] read(final DataInput in) throws IOException { return new long[] {in.readLong()}; }
                }

                public static final class PerMinute implements WindowedJob<long[]> {
                    public String name() { return "requests-per-minute"; }
                    public EventSchema schema() { return EventType.REQUEST.schema(); }
                    public WindowPolicy policy() { return new WindowPolicy(WindowDefinition.tumbling(60_000), 0, 0); }
                    public WindowAggregation<long[]> aggregation() { return new Sum(); }
                    public ResultHandler<long[]> newResultHandler() {
                        return (ip, start, end, sum, sequence, afterWatermark, out) ->
                                out.put("state.requests-per-minute", ip + "@" + start, new Minute(ip, start, sum[0]));
                    }
                }

                @Override
                public JobDefinition job() {
                    return new PerMinute();
                }
            }
            """;

    /** A job whose two schemas — the calls it reads, the plans it looks up as records — are declared here only. */
    private static final String BILLS_SOURCE = """
            package com.acme;

            import io.streamgrid.jobs.keyed.*;
            import io.streamgrid.jobs.schema.*;

            public final class CallBills implements StreamGridJob {
                public static final EventSchema CALL = EventSchema.builder("call").stringKey("subscriber", 16).eventTime("ts")
                        .int64("seconds").build();
                public static final EventSchema PLAN = EventSchema.builder("plan").stringKey("subscriber", 16).eventTime("valid_from")
                        .enumOf("tier", "BASIC", "GOLD").int64("cents_per_minute").build();
                static final TypedField.LongField SECONDS = CALL.longField("seconds");
                static final TypedField.EnumField TIER = PLAN.enumField("tier");
                static final TypedField.LongField RATE = PLAN.longField("cents_per_minute");

                public static final class Bill implements StringKeyedFunction<long[]> {
                    @Override
                    public void onEvent(final SchemaRecord call, final StringKeyContext<long[]> context) {
                        final SchemaRecord plan = context.lookupRecord("dim.plans");
                        long[] cents = context.state();
                        if (cents == null) {
                            cents = new long[1];
                            context.setState(cents);
                        }
                        cents[0] += call.get(SECONDS) * plan.get(RATE) / 60;
                        context.put("state.call-bills", context.stringKey(), plan.get(TIER) + ":" + cents[0]);
                    }
                }

                @Override
                public KeyedJob<?> job() {
                    return KeyedJob.<long[]>builder("call-bills", CALL).stringKeyed(new Bill()).state(StateCodec.longs(1))
                            .lookup("dim.plans", "subscriber", PLAN, Lookup.OnMissing.SIDE_OUTPUT).writes("state.call-bills").build();
                }
            }
            """;

    private Path workDir;
    private Path jar;

    @BeforeEach
    void compileJar(final TestInfo test) throws IOException {
        workDir = TestWorkDir.of(test);
        final Path sources = Files.createDirectories(workDir.resolve("src/com/acme"));
        final Path classes = Files.createDirectories(workDir.resolve("classes"));
        Files.writeString(sources.resolve("VisitTotals.java"), SOURCE);
        Files.writeString(sources.resolve("RequestsPerMinute.java"), WINDOWED_SOURCE);
        Files.writeString(sources.resolve("CallBills.java"), BILLS_SOURCE);
        final JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        final int result = compiler.run(null, null, null, "-d", classes.toString(), "-classpath",
                System.getProperty("java.class.path"), sources.resolve("VisitTotals.java").toString(),
                sources.resolve("RequestsPerMinute.java").toString(), sources.resolve("CallBills.java").toString());
        assertThat(result).as("javac").isZero();
        jar = workDir.resolve("acme-jobs.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar)); Stream<Path> files = Files.walk(classes)) {
            for (final Path file : files.filter(Files::isRegularFile).toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(file).toString().replace('\\', '/')));
                Files.copy(file, (OutputStream) out);
                out.closeEntry();
            }
        }
    }

    private Path config(final String cluster, final boolean allowUpload) throws IOException {
        return config(cluster, allowUpload, "[com.acme.]");
    }

    private Path config(final String cluster, final boolean allowUpload, final String javaAllow) throws IOException {
        final Path file = workDir.resolve("sg-" + allowUpload + "-" + javaAllow.hashCode() + ".yaml");
        Files.writeString(file, "cluster-name: " + cluster + "\ningest:\n  dir: " + workDir.resolve("ingest")
                + "\njobs:\n  allow-code-upload: " + allowUpload + "\n  snapshot-interval-ms: 200\n"
                + "serialization:\n  java-allow: " + javaAllow + "\n");
        return file;
    }

    /** Visits and amount per user over the stream's first {@code visits}. */
    private static Map<String, long[]> expectedTotals(final VisitStream stream, final int visits) {
        final Map<String, long[]> totals = new HashMap<>();
        for (final VisitStream.Visit visit : stream.visits().subList(0, visits)) {
            final long[] total = totals.computeIfAbsent(visit.user(), u -> new long[2]);
            total[0]++;
            total[1] += visit.sequence() % 100; // the amount VisitStream writes
        }
        return totals;
    }

    /**
     * The jar's job through the CLI, then the same job submitted again as a user would to run new
     * code: refused while the first is there, then {@code --from-checkpoint last} replaces it — the
     * new job restores the first one's checkpoint (every log partition's position and every user's
     * counts) and counts only the visits after it; {@code --from-checkpoint none} replaces it again
     * starting over from the logs' beginning. The oracle: totals per user over the visits appended.
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void when_jarJobSubmittedAndReplacedFromItsCheckpoint_then_stateCarriesOverAndIsReadableWithoutTheClass() throws IOException {
        final String clusterName = "jar-" + System.nanoTime();
        final Path config = config(clusterName, true);
        final VisitStream stream = new VisitStream(5, 10_000, 300, 4, 0, 1, 0);
        try (LocalCluster cluster = LocalCluster.builder().members(2).clusterName(clusterName).configFile(config)
                .workDir(workDir).start();
             SchemaLog log = SchemaLog.open(SchemaLog.directoryOf(workDir.resolve("ingest"), "visit"), BucketCounts.VISIT, 4)) {
            stream.append(log, 0, 5_000);
            final String member = "--member=" + cluster.members().get(0).address();
            final String[] job = {"--jar", jar.toString(), "--class", "com.acme.VisitTotals", "--config", config.toString(), member};

            final CliRun submitted = CliRun.of(concat(new String[] {"job", "submit"}, job));
            assertThat(submitted.code()).as(submitted.err()).isZero();
            assertThat(submitted.out()).contains("submitted visit-totals", "from acme-jobs.jar (com.acme.VisitTotals)");
            final HazelcastInstance client = cluster.newClient();
            awaitTotalsOf(client, stream, 5_000);
            for (final Map.Entry<Object, Object> entry : client.getMap("state.visit-totals").entrySet()) {
                assertThat(entry.getValue()).as("the user's record, without its class").isInstanceOf(GenericRecord.class);
                assertThat(((GenericRecord) entry.getValue()).getString("user")).isEqualTo(entry.getKey());
            }
            assertThat(CliRun.of("job", "list", "--config", config.toString(), member).out()).contains("visit-totals  RUNNING");

            final CliRun twice = CliRun.of(concat(new String[] {"job", "submit"}, job));
            assertThat(twice.code()).isEqualTo(2);
            assertThat(twice.errLines()).singleElement().asString().contains("job 'visit-totals' is already RUNNING",
                    "--from-checkpoint last");
            final CliRun notKept = CliRun.of(concat(new String[] {"job", "submit", "--from-checkpoint", "999999"}, job));
            assertThat(notKept.code()).isEqualTo(2);
            assertThat(notKept.errLines()).singleElement().asString().contains("does not keep checkpoint 999999");
            final Job first = client.getJet().getJob("visit-totals");
            assertThat(first.getStatus()).as("the first job after two refused submissions").isEqualTo(JobStatus.RUNNING);

            final CliRun replaced = CliRun.of(concat(new String[] {"job", "submit", "--from-checkpoint", "last"}, job));
            assertThat(replaced.code()).as(replaced.err()).isZero();
            System.out.print(replaced.out());
            final Matcher copied = Pattern.compile("copied checkpoint (\\d+) of visit-totals").matcher(replaced.out());
            assertThat(copied.find()).as(replaced.out()).isTrue();
            final Job second = client.getJet().getJob("visit-totals");
            assertThat(second.getId()).isNotEqualTo(first.getId());
            stream.append(log, 5_000, 10_000);
            awaitTotalsOf(client, stream, 10_000);
            await("the replacing job restored all 4 log partitions").atMost(Duration.ofMinutes(1))
                    .until(() -> JobFigures.total(second, JobMetricNames.RESTORED_PARTITIONS) == 4);
            final String restoreLine = "from snapshot " + copied.group(1) + ", mapName = __jet.exportedSnapshot.visit-totals";
            assertThat(cluster.members()).as("a member's log says " + restoreLine)
                    .anyMatch(m -> m.log().contains(restoreLine));
            assertThat(replaced.out()).contains("suspending visit-totals (id " + first.getIdString(),
                    "cancelled visit-totals (id " + first.getIdString() + ") after copying checkpoint " + copied.group(1),
                    "submitted visit-totals", "; its state restored from the checkpoint copied");
            System.out.println("the replacing job restored checkpoint " + copied.group(1) + " (4 log partitions) and counted "
                    + "the 5000 visits after it: totals equal the oracle's over 10000");

            final CliRun startedOver = CliRun.of(concat(new String[] {"job", "submit", "--from-checkpoint", "none"}, job));
            assertThat(startedOver.code()).as(startedOver.err()).isZero();
            assertThat(startedOver.out()).contains("cancelled visit-totals (id " + second.getIdString()
                    + "); the new job starts over from the beginning of its logs").doesNotContain("copied checkpoint");
            final Job third = client.getJet().getJob("visit-totals");
            await().atMost(Duration.ofMinutes(1)).until(() -> JobFigures.of(third) != null && JobFigures.of(third).eventsIn() == 10_000);
            assertThat(JobFigures.total(third, JobMetricNames.RESTORED_PARTITIONS)).as("partitions restored when starting over")
                    .isZero();
            awaitTotalsOf(client, stream, 10_000);
            final CliRun cancelled = CliRun.of("job", "cancel", "visit-totals", "--config", config.toString(), member);
            assertThat(cancelled.code()).as(cancelled.err()).isZero();
        }
    }

    /** Waits until the visit-totals map holds the oracle's totals over the stream's first {@code visits}. */
    private static void awaitTotalsOf(final HazelcastInstance client, final VisitStream stream, final int visits) {
        final Map<String, List<Long>> expected = new HashMap<>();
        expectedTotals(stream, visits).forEach((user, total) -> expected.put(user, List.of(total[0], total[1])));
        await().atMost(Duration.ofMinutes(2)).until(() -> expected.equals(totals(client, "state.visit-totals")));
        System.out.println(expected.size() + " users' totals over " + visits + " visits expected, all found equal");
    }

    /**
     * Kappa through the CLI: the jar's job replayed beside the live one, into maps of its own. The
     * replay's map equals the live one (and the oracle); the live map is untouched; a second replay
     * into the same suffix, a bad suffix and a bad time are refused with exit 2.
     */
    @Tag("soak") // ExampleJobsCliTest and KafkaIngestTest replay through the CLI by default; soak only, to keep the default run within 30 minutes
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void when_aJarJobIsReplayedThroughCli_then_itsOwnMapEqualsTheLiveOneAndASecondReplayIntoItIsRefused() throws IOException {
        final String clusterName = "replay-" + System.nanoTime();
        final Path config = config(clusterName, true);
        final VisitStream stream = new VisitStream(6, 4_000, 200, 4, 0, 1, 0);
        try (LocalCluster cluster = LocalCluster.builder().members(2).clusterName(clusterName).configFile(config)
                .workDir(workDir).start();
             SchemaLog log = SchemaLog.open(SchemaLog.directoryOf(workDir.resolve("ingest"), "visit"), BucketCounts.VISIT, 4)) {
            stream.append(log, 0, 4_000);
            final String member = "--member=" + cluster.members().get(0).address();
            final String[] job = {"--jar", jar.toString(), "--class", "com.acme.VisitTotals", "--config", config.toString(), member};
            final CliRun submitted = CliRun.of(concat(new String[] {"job", "submit"}, job));
            assertThat(submitted.code()).as(submitted.err()).isZero();
            final Map<String, List<Long>> expected = new HashMap<>();
            expectedTotals(stream, 4_000).forEach((user, total) -> expected.put(user, List.of(total[0], total[1])));
            final HazelcastInstance client = cluster.newClient();
            await().atMost(Duration.ofMinutes(2)).until(() -> expected.equals(totals(client, "state.visit-totals")));

            final CliRun replayed = CliRun.of(concat(new String[] {"job", "replay", "--into", "again"}, job));
            assertThat(replayed.code()).as(replayed.err()).isZero();
            assertThat(replayed.out()).contains("replaying visit-totals from the start of its logs as visit-totals.again",
                    "writes [state.visit-totals.again]");
            // It followed the replay until it caught up: the records it counted (4,000 events and the live job's
            // heartbeats), a progress line per metrics collection, then the end.
            System.out.print(replayed.out());
            final Matcher following = Pattern.compile("following the replay over ([\\d,]+) records").matcher(replayed.out());
            assertThat(following.find()).as(replayed.out()).isTrue();
            assertThat(Long.parseLong(following.group(1).replace(",", ""))).isGreaterThanOrEqualTo(4_000);
            assertThat(replayed.out()).containsPattern("replay visit-totals\\.again: \\d+ %, [\\d,]+/s, about \\d+ \\w+ left "
                    + "\\([\\d,]+ records behind\\)").contains("replay visit-totals.again caught up with its logs");
            await().atMost(Duration.ofMinutes(2)).until(() -> expected.equals(totals(client, "state.visit-totals.again")));
            assertThat(totals(client, "state.visit-totals")).as("the live map after the replay").isEqualTo(expected);
            System.out.println(expected.size() + " users expected, " + totals(client, "state.visit-totals.again").size()
                    + " found in the replay's map, equal to the live map");

            final CliRun again = CliRun.of(concat(new String[] {"job", "replay", "--into", "again"}, job));
            assertThat(again.code()).isEqualTo(2);
            assertThat(again.errLines()).singleElement().asString().contains("a replay named visit-totals.again is already RUNNING");
            final CliRun badSuffix = CliRun.of(concat(new String[] {"job", "replay", "--into", "Again"}, job));
            assertThat(badSuffix.code()).isEqualTo(2);
            assertThat(badSuffix.errLines()).singleElement().asString().contains("--into: replay suffix 'Again' is not valid");
            final CliRun badTime = CliRun.of(concat(new String[] {"job", "replay", "--into", "later", "--from", "yesterday"}, job));
            assertThat(badTime.code()).isEqualTo(2);
            assertThat(badTime.errLines()).singleElement().asString().contains("--from yesterday is neither an ISO-8601 instant");

            assertThat(CliRun.of("job", "cancel", "visit-totals.again", "--config", config.toString(), member).code()).isZero();
            await().atMost(Duration.ofMinutes(1)).until(() -> client.getJet().getJob("visit-totals.again").getStatus().isTerminal());
            final CliRun intoUsedMaps = CliRun.of(concat(new String[] {"job", "replay", "--into", "again"}, job));
            assertThat(intoUsedMaps.code()).isEqualTo(2);
            assertThat(intoUsedMaps.errLines()).singleElement().asString()
                    .contains("map state.visit-totals.again already holds " + expected.size() + " entries");
        }
    }

    private static String[] concat(final String[] head, final String[] tail) {
        return Stream.concat(Stream.of(head), Stream.of(tail)).toArray(String[]::new);
    }

    /** A visit-totals map as user → [visits, amount], read without the user's class. */
    private static Map<String, List<Long>> totals(final HazelcastInstance client, final String map) {
        final Map<String, List<Long>> totals = new HashMap<>();
        client.<String, GenericRecord>getMap(map).forEach((user, total) -> totals.put(user,
                List.of(total.getInt64("visits"), total.getInt64("amount"))));
        return totals;
    }

    /**
     * A windowed job from the same jar: requests per IP and minute over the built-in request log,
     * every count equal to the oracle's, read as the user's records without their class.
     */
    /**
     * Schemas declared once, in the job's Java: the configuration declares none, and the CLI takes
     * them from the jar — the calls loaded into their log, the plans (a CSV file, one row invalid)
     * into the dimension map {@code dim.plans} as records, read back by field name. The job reads
     * each call's plan with the plan schema's field handles. Oracle: per subscriber with a plan, the
     * tier and seconds × rate / 60 summed; every call of the subscriber whose plan row was rejected
     * in the unmatched map.
     */
    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void when_theJobDeclaresItsSchemas_then_ingestAndDimLoadTakeThemFromTheJarAndTheJobReadsPlansByField() throws IOException {
        final String clusterName = "dims-" + System.nanoTime();
        final Path config = config(clusterName, true);
        final String jarClass = "com.acme.CallBills";
        final Path calls = workDir.resolve("calls.csv");
        final StringBuilder callLines = new StringBuilder("subscriber,ts,seconds\n");
        final Map<String, Long> cents = new HashMap<>();
        final Map<String, Long> rates = Map.of("ann", 6L, "ben", 12L);
        int unplanned = 0;
        for (int i = 0; i < 300; i++) {
            final String subscriber = List.of("ann", "ben", "cat").get(i % 3);
            final long seconds = 20 + i;
            callLines.append(subscriber).append(',').append(1_767_225_600_000L + i * 1_000L).append(',').append(seconds).append('\n');
            if (rates.containsKey(subscriber)) {
                cents.merge(subscriber, seconds * rates.get(subscriber) / 60, Long::sum);
            } else {
                unplanned++;
            }
        }
        Files.writeString(calls, callLines);
        final Path plans = workDir.resolve("plans.csv");
        Files.writeString(plans, "subscriber,valid_from,tier,cents_per_minute\nann,0,GOLD,6\nben,0,BASIC,12\ncat,0,PLATINUM,3\n");

        final CliRun notDeclared = CliRun.of("ingest", "load", calls.toString(), "--schema", "sms", "--jar", jar.toString(),
                "--class", jarClass, "--config", config.toString());
        assertThat(notDeclared.code()).isEqualTo(2);
        assertThat(notDeclared.err()).contains("job call-bills", "declares no such schema", "[call, plan]");
        final CliRun loaded = CliRun.of("ingest", "load", calls.toString(), "--schema", "call", "--jar", jar.toString(),
                "--class", jarClass, "--config", config.toString());
        assertThat(loaded.code()).as(loaded.err()).isZero();
        assertThat(loaded.out()).contains("300 events loaded, 0 rejected");
        try (LocalCluster cluster = LocalCluster.builder().members(1).clusterName(clusterName).configFile(config)
                .workDir(workDir).start()) {
            final String member = "--member=" + cluster.members().get(0).address();
            final CliRun dims = CliRun.of("dim", "load", plans.toString(), "--map", "dim.plans", "--schema", "plan", "--jar",
                    jar.toString(), "--class", jarClass, "--rejected", workDir.resolve("plans.rejected").toString(),
                    "--config", config.toString(), member);
            assertThat(dims.code()).as(dims.err()).isZero();
            assertThat(dims.out()).contains("2 rows put into dim.plans, 1 rejected", "dim.plans holds 2 entries");
            assertThat(Files.readString(workDir.resolve("plans.rejected"))).contains("line 4", "PLATINUM");
            final CliRun shown = CliRun.of("dim", "get", "dim.plans", "ann", "--schema", "plan", "--jar", jar.toString(),
                    "--class", jarClass, "--config", config.toString(), member);
            assertThat(shown.code()).as(shown.err()).isZero();
            assertThat(shown.out()).containsPattern("tier\\s+GOLD").containsPattern("cents_per_minute\\s+6");

            final CliRun submitted = CliRun.of("job", "submit", "--jar", jar.toString(), "--class", jarClass,
                    "--config", config.toString(), member);
            assertThat(submitted.code()).as(submitted.err()).isZero();
            final HazelcastInstance client = cluster.newClient();
            final Map<String, String> expected = Map.of("ann", "GOLD:" + cents.get("ann"), "ben", "BASIC:" + cents.get("ben"));
            final int unmatched = unplanned;
            await().atMost(Duration.ofMinutes(2)).until(() -> expected.equals(Map.copyOf(client.<String, String>getMap("state.call-bills")))
                    && client.getMap("unmatched.call-bills").size() == unmatched);
            System.out.println(expected.size() + " bills equal the oracle, " + unmatched + " calls without a plan side-output; "
                    + "the schemas declared in the jar only");
        }
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void when_windowedJobSubmittedFromAJar_then_itsWindowsEqualTheOracle() throws IOException {
        final String clusterName = "jarwin-" + System.nanoTime();
        final Path config = config(clusterName, true);
        final GeneratorSpec spec = GeneratorSpec.of(EventType.REQUEST, 9, 20_000, 50).withRate(200);
        final Map<String, Long> expected = new HashMap<>();
        new EventGenerator(spec).generate(r -> expected.merge(r.keyLong() + "@" + Math.floorDiv(r.eventTime(), 60_000L) * 60_000L,
                1L, Long::sum));
        try (LocalCluster cluster = LocalCluster.builder().members(2).clusterName(clusterName).configFile(config)
                .workDir(workDir).start();
             BuiltInLogs logs = new BuiltInLogs(workDir.resolve("ingest"), 4)) {
            new EventGenerator(spec).appendTo(logs, 0, line -> { });
            logs.log(EventType.REQUEST).appendEndOfStream();
            final String member = "--member=" + cluster.members().get(0).address();

            final CliRun renamed = CliRun.of("job", "submit", "--jar", jar.toString(), "--class", "com.acme.RequestsPerMinute",
                    "--name", "other", "--config", config.toString(), member);
            assertThat(renamed.code()).isEqualTo(2);
            assertThat(renamed.errLines()).singleElement().asString().contains("--name renames keyed jobs");
            final CliRun submitted = CliRun.of("job", "submit", "--jar", jar.toString(), "--class", "com.acme.RequestsPerMinute",
                    "--config", config.toString(), member);
            assertThat(submitted.code()).as(submitted.err()).isZero();
            assertThat(submitted.out()).contains("submitted requests-per-minute", "schemas/request");

            final HazelcastInstance client = cluster.newClient();
            await().atMost(Duration.ofMinutes(2)).until(() -> client.getMap("state.requests-per-minute").size() == expected.size());
            final Map<String, Long> found = new HashMap<>();
            client.<String, GenericRecord>getMap("state.requests-per-minute").forEach((key, minute) ->
                    found.put(key, minute.getInt64("requests")));
            assertThat(found).isEqualTo(expected);
            System.out.println(expected.size() + " windows expected, " + found.size() + " found, all counts equal");
        }
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void when_codeUploadIsOff_then_submitExits2NamingTheSettingAndNothingIsDeployed() throws IOException {
        final String clusterName = "nojar-" + System.nanoTime();
        assertThat(refusedSubmission(clusterName, config(clusterName, false))).contains("jobs.allow-code-upload: true",
                "nothing was deployed");
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void when_theJobsPackageIsNotInJavaAllow_then_submitExits2NamingTheSettingAndNoJobRuns() throws IOException {
        final String clusterName = "notallowed-" + System.nanoTime();
        assertThat(refusedSubmission(clusterName, config(clusterName, true, "[]"))).contains("com.acme.", "serialization.java-allow");
    }

    /** Submits VisitTotals to a one-member cluster of {@code config}; checks it exits 2 and no job is there; returns its one error line. */
    private String refusedSubmission(final String clusterName, final Path config) throws IOException {
        SchemaLog.open(SchemaLog.directoryOf(workDir.resolve("ingest"), "visit"), BucketCounts.VISIT, 2).close();
        try (LocalCluster cluster = LocalCluster.builder().members(1).clusterName(clusterName).configFile(config)
                .workDir(workDir).start()) {
            final CliRun refused = CliRun.of("job", "submit", "--jar", jar.toString(), "--class", "com.acme.VisitTotals",
                    "--config", config.toString(), "--member=" + cluster.members().get(0).address());

            assertThat(refused.code()).isEqualTo(2);
            assertThat(cluster.newClient().getJet().getJobs()).as("jobs in the cluster").isEmpty();
            assertThat(refused.errLines()).hasSize(1);
            return refused.errLines().get(0);
        }
    }

    @Test
    void when_classIsMissingOrNotAJobOrItsLogIsMissing_then_exit2BeforeConnecting() throws IOException {
        final Path config = config("nowhere", true);
        final List<String> common = List.of("--config", config.toString(), "--member=127.0.0.1:1");

        final CliRun missing = CliRun.of(Stream.concat(Stream.of("job", "submit", "--jar", jar.toString(), "--class",
                "com.acme.Nope"), common.stream()).toArray(String[]::new));
        final CliRun notAJob = CliRun.of(Stream.concat(Stream.of("job", "submit", "--jar", jar.toString(), "--class",
                "com.acme.VisitTotals$Total"), common.stream()).toArray(String[]::new));
        final CliRun noLog = CliRun.of(Stream.concat(Stream.of("job", "submit", "--jar", jar.toString(), "--class",
                "com.acme.VisitTotals"), common.stream()).toArray(String[]::new));

        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.errLines()).singleElement().asString().contains("class com.acme.Nope is not in acme-jobs.jar");
        assertThat(notAJob.code()).isEqualTo(2);
        assertThat(notAJob.errLines()).singleElement().asString()
                .contains("is not a StreamGrid job: it must implement io.streamgrid.jobs.keyed.StreamGridJob");
        assertThat(noLog.code()).isEqualTo(2);
        assertThat(noLog.errLines()).singleElement().asString()
                .contains("reads schema visit, but there is no log of it in", "streamgrid ingest load FILE --schema visit");
    }
}
