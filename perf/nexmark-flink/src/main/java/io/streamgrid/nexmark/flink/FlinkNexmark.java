package io.streamgrid.nexmark.flink;

import io.streamgrid.nexmark.NexmarkGenerator;
import io.streamgrid.nexmark.NexmarkQuery;
import io.streamgrid.nexmark.ResultFingerprint;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Runs one NEXMark query in Apache Flink — a local MiniCluster in this JVM — over events generated
 * into memory first, and prints one line with what it measured:
 * {@code RESULT query=Q5 events=… elapsedMs=… cpuMs=… rows=… sumA=… sumB=…}. The run is measured
 * from the first event read to the last sink's end of input; CPU is this process's over that time.
 *
 * <p>Arguments: {@code --query Q5 --events N --seed S --rate EVENTS_PER_SECOND --base-time MS
 * --padding PERCENT --parallelism P --checkpoint-ms MS} ({@code 0}: no checkpoints, else
 * exactly-once) {@code --checkpoint-dir DIR} (default: a new temporary directory) {@code --state-backend hashmap|rocksdb --runs N} (each a fresh MiniCluster in this JVM, one
 * {@code RESULT} line each: the first runs cold, the later ones with the JIT warm, as the other
 * engines' later runs in their long-lived JVMs).
 */
public final class FlinkNexmark {
    private FlinkNexmark() {
    }

    public static void main(final String[] args) throws Exception {
        final Map<String, String> options = parse(args);
        final NexmarkQuery query = NexmarkQuery.named(required(options, "query"));
        final long events = Long.parseLong(required(options, "events"));
        final int parallelism = Integer.parseInt(options.getOrDefault("parallelism", "2"));
        final long checkpointMs = Long.parseLong(options.getOrDefault("checkpoint-ms", "1000"));
        final NexmarkGenerator generator = new NexmarkGenerator(Long.parseLong(options.getOrDefault("seed", "1")),
                Long.parseLong(options.getOrDefault("rate", "10000")), Long.parseLong(options.getOrDefault("base-time", "1700000000000")),
                Integer.parseInt(options.getOrDefault("padding", "100")));
        if (events % ((long) NexmarkGenerator.CYCLE * parallelism) != 0) {
            throw new IllegalArgumentException("--events must be a multiple of " + NexmarkGenerator.CYCLE + " × the parallelism, was "
                    + events);
        }
        final long generating = System.nanoTime();
        InMemoryStreams.generate(generator, events, needsPersons(query), needsAuctions(query), needsBids(query));
        System.out.println("generated the streams of " + events + " events in " + (System.nanoTime() - generating) / 1_000_000 + " ms");

        final int runs = Integer.parseInt(options.getOrDefault("runs", "1"));
        final Path checkpoints = options.containsKey("checkpoint-dir") ? Path.of(options.get("checkpoint-dir"))
                : Files.createTempDirectory("nexmark-flink-checkpoints");
        for (int run = 1; run <= runs; run++) {
            runOnce(query, events, parallelism, checkpointMs, options.getOrDefault("state-backend", "hashmap"),
                    checkpoints.resolve("run-" + run));
        }
        System.exit(0); // the MiniCluster's threads are done with; nothing else to wait for
    }

    /** One run of {@code query} over the generated streams in a fresh MiniCluster; prints its {@code RESULT} line and returns its result. */
    static ResultFingerprint runOnce(final NexmarkQuery query, final long events, final int parallelism, final long checkpointMs,
                                     final String stateBackend, final Path checkpoints) throws Exception {
        FingerprintSink.TOTAL.set(ResultFingerprint.EMPTY);
        InMemoryStreams.FIRST_READ_NANOS.set(0);
        final Configuration configuration = new Configuration();
        configuration.setString("state.backend.type", stateBackend);
        configuration.setString("taskmanager.numberOfTaskSlots", String.valueOf(parallelism));
        // A failure ends the run with its cause: with checkpoints on, Flink would otherwise restart the
        // job for ever (and its logging goes nowhere here), which looks like a run that never ends.
        configuration.setString("restart-strategy.type", "none");
        // Checkpoints to files, as a production job keeps them: the default (the JobManager's memory)
        // refuses a state above 5 MB, which Q3's waiting auctions pass within seconds.
        configuration.setString("execution.checkpointing.storage", "filesystem");
        configuration.setString("execution.checkpointing.dir", checkpoints.toUri().toString());
        final StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(parallelism, configuration);
        if (checkpointMs > 0) {
            env.enableCheckpointing(checkpointMs, CheckpointingMode.EXACTLY_ONCE);
        }
        FlinkQueries.build(query, env, parallelism).sinkTo(new FingerprintSink()).name("fingerprint");
        env.execute("nexmark " + query);

        final ResultFingerprint result = FingerprintSink.TOTAL.get();
        final long elapsedNanos = FingerprintSink.LAST_DONE_NANOS.get() - InMemoryStreams.FIRST_READ_NANOS.get();
        final long cpuNanos = FingerprintSink.CPU_AT_LAST_DONE_NANOS.get() - InMemoryStreams.CPU_AT_FIRST_READ_NANOS.get();
        System.out.println("RESULT query=" + query + " events=" + events + " elapsedMs=" + elapsedNanos / 1_000_000 + " cpuMs="
                + cpuNanos / 1_000_000 + " rows=" + result.rows() + " sumA=" + result.sumA() + " sumB=" + result.sumB());
        return result;
    }

    static boolean needsPersons(final NexmarkQuery query) {
        return query == NexmarkQuery.Q3 || query == NexmarkQuery.Q8;
    }

    static boolean needsAuctions(final NexmarkQuery query) {
        return query == NexmarkQuery.Q3 || query == NexmarkQuery.Q4 || query == NexmarkQuery.Q8;
    }

    static boolean needsBids(final NexmarkQuery query) {
        return !(query == NexmarkQuery.Q3 || query == NexmarkQuery.Q8);
    }

    private static Map<String, String> parse(final String[] args) {
        final Map<String, String> options = new HashMap<>();
        for (int i = 0; i < args.length; i++) {
            if (!args[i].startsWith("--") || i + 1 >= args.length) {
                throw new IllegalArgumentException("expected --name value pairs, got " + String.join(" ", args));
            }
            options.put(args[i].substring(2), args[++i]);
        }
        return options;
    }

    private static String required(final Map<String, String> options, final String name) {
        final String value = options.get(name);
        if (value == null) {
            throw new IllegalArgumentException("--" + name + " is required");
        }
        return value;
    }
}
