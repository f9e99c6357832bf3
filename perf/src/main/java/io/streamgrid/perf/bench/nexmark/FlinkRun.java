package io.streamgrid.perf.bench.nexmark;

import io.streamgrid.nexmark.NexmarkQuery;
import io.streamgrid.nexmark.ResultFingerprint;
import io.streamgrid.sink.ChildJvm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

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

    /**
     * Runs {@code query} {@code runs} times, each in a fresh MiniCluster of one JVM, over
     * {@code events} events of {@code setup}'s generator; the JVM's output goes to {@code log}.
     */
    static List<FlinkRun> run(final NexmarkQuery query, final long events, final NexmarkSetup setup, final long checkpointMs,
                              final int runs, final Path log, final Consumer<String> progress) throws InterruptedException {
        final Path dir = runnerDir();
        final List<String> arguments = new ArrayList<>(List.of(HEAP, "-XX:+UseG1GC",
                "-cp", dir.resolve("streamgrid-nexmark-flink.jar") + java.io.File.pathSeparator + dir.resolve("lib") + "/*",
                "io.streamgrid.nexmark.flink.FlinkNexmark",
                "--query", query.name(), "--events", String.valueOf(events), "--seed", String.valueOf(setup.seed()),
                "--rate", String.valueOf(setup.eventsPerSecond()), "--base-time", String.valueOf(setup.baseTimeMs()),
                "--padding", String.valueOf(setup.padding()), "--parallelism", String.valueOf(setup.parallelism()),
                "--checkpoint-ms", String.valueOf(checkpointMs), "--runs", String.valueOf(runs),
                "--checkpoint-dir", log.resolveSibling(log.getFileName() + "-checkpoints").toString()));
        final ChildJvm jvm = new ChildJvm("Flink " + query, log, progress);
        try {
            jvm.start(ChildJvm.javaCommand(arguments));
            final int exit = jvm.awaitExit(Duration.ofMinutes(20L * runs));
            if (exit != 0) {
                throw new IllegalStateException("Flink's run of " + query + " exited with code " + exit + "; see " + log);
            }
        } finally {
            jvm.close();
        }
        final List<FlinkRun> done = parse(query, log);
        if (done.size() != runs) {
            throw new IllegalStateException("Flink's runs of " + query + " printed " + done.size() + " RESULT lines, not " + runs + "; see " + log);
        }
        return done;
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
        final List<String> lines;
        try {
            lines = Files.readAllLines(log);
        } catch (final IOException e) {
            throw new UncheckedIOException("cannot read Flink's output " + log, e);
        }
        final List<FlinkRun> runs = new ArrayList<>();
        for (final String line : lines) {
            if (line.startsWith("RESULT ")) {
                final Map<String, String> fields = new HashMap<>();
                for (final String pair : line.substring("RESULT ".length()).split(" ")) {
                    final int eq = pair.indexOf('=');
                    fields.put(pair.substring(0, eq), pair.substring(eq + 1));
                }
                runs.add(new FlinkRun(query, Long.parseLong(fields.get("events")), Long.parseLong(fields.get("elapsedMs")),
                        Long.parseLong(fields.get("cpuMs")), new ResultFingerprint(Long.parseLong(fields.get("rows")),
                        Long.parseLong(fields.get("sumA")), Long.parseLong(fields.get("sumB")))));
            }
        }
        return runs;
    }
}
