package io.streamgrid.perf.bench.nexmark;

import io.streamgrid.nexmark.NexmarkQuery;
import io.streamgrid.nexmark.ResultFingerprint;
import io.streamgrid.sink.ChildJvm;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.zip.DataFormatException;

/**
 * One NEXMark query run in Apache Flink: a child JVM of its own ({@code perf/nexmark-flink}: its
 * jar and Flink's jars, never on this JVM's class path) that generates the events into memory,
 * runs the query in a local MiniCluster and prints what it measured, read back here.
 *
 * @param elapsedMs from its first event read to its last sink's end of input
 * @param cpuMs     the Flink JVM's CPU time over that span
 */
record FlinkRun(NexmarkQuery query, long events, long elapsedMs, long cpuMs, ResultFingerprint result) {
    /** Where the runner's jar and its {@code lib/} are: {@code perf/nexmark-flink/target} under the project root. */
    static final String DIR_PROPERTY = "streamgrid.flink.runner";

    /** The Flink JVM's heap: the generated events live in it. */
    private static final String HEAP = "-Xmx6g";

    double eventsPerSecond() {
        return events * 1000.0 / elapsedMs;
    }

    double eventsPerCpuSecond() {
        return events * 1000.0 / cpuMs;
    }

    /** Flink's state backends the benchmark runs: its default, state as objects on the heap, and RocksDB's files. */
    enum StateBackend {
        HASHMAP("hashmap", "HashMap state"),
        ROCKSDB("rocksdb", "RocksDB state");

        private final String option;
        private final String label;

        StateBackend(final String option, final String label) {
            this.option = option;
            this.label = label;
        }

        /** How the report names Flink on this backend. */
        String engine() {
            return "Flink (MiniCluster, " + label + ")";
        }
    }

    /**
     * Runs {@code query} {@code runs} times on {@code backend}, each in a fresh MiniCluster of one
     * JVM, over {@code events} events of {@code setup}'s generator; the JVM's output goes to {@code log}.
     */
    static List<FlinkRun> run(final NexmarkQuery query, final long events, final NexmarkSetup setup, final long checkpointMs,
                              final StateBackend backend, final int runs, final Path log, final Consumer<String> progress)
            throws InterruptedException {
        launch(query, events, setup, checkpointMs, List.of("--runs", String.valueOf(runs), "--state-backend", backend.option),
                Duration.ofMinutes(20L * runs), log, progress);
        final List<FlinkRun> done = parse(query, log);
        if (done.size() != runs) {
            throw new IllegalStateException("Flink's runs of " + query + " printed " + done.size() + " RESULT lines, not " + runs + "; see " + log);
        }
        return done;
    }

    /**
     * A paced run of {@code query} in Flink, once per tuning of the runner (as it comes, and tuned
     * for latency), over {@code events} events of {@code setup}'s generator released at its rate
     * (after a warm-up run as fast as it goes); rows due in the first {@code warmUpMs} of event time
     * are not measured.
     */
    static List<Paced> paced(final NexmarkQuery query, final long events, final NexmarkSetup setup, final long checkpointMs,
                             final long warmUpMs, final Path log, final Consumer<String> progress) throws InterruptedException {
        final long eventTimeMinutes = events / setup.eventsPerSecond() / 60;
        launch(query, events, setup, checkpointMs, List.of("--paced-warm-up-ms", String.valueOf(warmUpMs)),
                Duration.ofMinutes(10 + 3 * eventTimeMinutes), log, progress);
        final List<Paced> runs = new ArrayList<>();
        for (final Map<String, String> fields : lines(log, "LATENCY ")) {
            final byte[] encoded = Base64.getDecoder().decode(fields.get("histogram"));
            try {
                runs.add(new Paced(fields.get("tuning"), fingerprint(fields),
                        Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(encoded), 0)));
            } catch (final DataFormatException e) {
                throw new IllegalStateException("Flink's latency histogram of " + query + " does not decode; see " + log, e);
            }
        }
        if (runs.isEmpty()) {
            throw new IllegalStateException("Flink's paced runs of " + query + " printed no LATENCY line; see " + log);
        }
        return runs;
    }

    /** One paced run: the runner's tuning, the result, and the rows' latencies in nanoseconds. */
    record Paced(String tuning, ResultFingerprint result, Histogram latencyNanos) {
    }

    /** Starts the runner's JVM for {@code query} with the common arguments and {@code more}, and waits for it to exit. */
    private static void launch(final NexmarkQuery query, final long events, final NexmarkSetup setup, final long checkpointMs,
                               final List<String> more, final Duration limit, final Path log, final Consumer<String> progress)
            throws InterruptedException {
        final Path dir = runnerDir();
        final List<String> arguments = new ArrayList<>(List.of(HEAP, "-XX:+UseG1GC",
                "-cp", dir.resolve("streamgrid-nexmark-flink.jar") + java.io.File.pathSeparator + dir.resolve("lib") + "/*",
                "io.streamgrid.nexmark.flink.FlinkNexmark",
                "--query", query.name(), "--events", String.valueOf(events), "--seed", String.valueOf(setup.seed()),
                "--rate", String.valueOf(setup.eventsPerSecond()), "--base-time", String.valueOf(setup.baseTimeMs()),
                "--padding", String.valueOf(setup.padding()), "--parallelism", String.valueOf(setup.parallelism()),
                "--checkpoint-ms", String.valueOf(checkpointMs),
                "--checkpoint-dir", log.resolveSibling(log.getFileName() + "-checkpoints").toString()));
        arguments.addAll(more);
        final ChildJvm jvm = new ChildJvm("Flink " + query, log, progress);
        try {
            jvm.start(ChildJvm.javaCommand(arguments));
            final int exit = jvm.awaitExit(limit);
            if (exit != 0) {
                throw new IllegalStateException("Flink's run of " + query + " exited with code " + exit + "; see " + log);
            }
        } finally {
            jvm.close();
        }
    }

    private static Path runnerDir() {
        final String configured = System.getProperty(DIR_PROPERTY);
        final Path dir = configured != null ? Path.of(configured)
                : Path.of(System.getProperty("streamgrid.root", "."), "perf", "nexmark-flink", "target");
        if (!Files.isRegularFile(dir.resolve("streamgrid-nexmark-flink.jar"))) {
            throw new IllegalStateException("no Flink runner at " + dir + ": build it (mvn -B -DskipTests package -pl perf/nexmark-flink -am)"
                    + " or set -D" + DIR_PROPERTY);
        }
        return dir;
    }

    /** Reads the {@code RESULT …} lines the runner printed, one per run. */
    private static List<FlinkRun> parse(final NexmarkQuery query, final Path log) {
        final List<FlinkRun> runs = new ArrayList<>();
        for (final Map<String, String> fields : lines(log, "RESULT ")) {
            runs.add(new FlinkRun(query, Long.parseLong(fields.get("events")), Long.parseLong(fields.get("elapsedMs")),
                    Long.parseLong(fields.get("cpuMs")), fingerprint(fields)));
        }
        return runs;
    }

    private static ResultFingerprint fingerprint(final Map<String, String> fields) {
        return new ResultFingerprint(Long.parseLong(fields.get("rows")), Long.parseLong(fields.get("sumA")),
                Long.parseLong(fields.get("sumB")));
    }

    /** The {@code name=value} fields of each line of {@code log} that starts with {@code prefix}. */
    private static List<Map<String, String>> lines(final Path log, final String prefix) {
        final List<String> lines;
        try {
            lines = Files.readAllLines(log);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot read Flink's output " + log, e);
        }
        final List<Map<String, String>> found = new ArrayList<>();
        for (final String line : lines) {
            if (line.startsWith(prefix)) {
                final Map<String, String> fields = new HashMap<>();
                for (final String pair : line.substring(prefix.length()).split(" ")) {
                    final int eq = pair.indexOf('=');
                    fields.put(pair.substring(0, eq), pair.substring(eq + 1));
                }
                found.add(fields);
            }
        }
        return found;
    }
}
