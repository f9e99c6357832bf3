package io.streamgrid.nexmark.flink;

import io.streamgrid.nexmark.NexmarkGenerator;
import io.streamgrid.nexmark.NexmarkQuery;
import io.streamgrid.nexmark.PacedRun;
import io.streamgrid.nexmark.ResultFingerprint;
import org.HdrHistogram.Histogram;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Base64;
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
 *
 * <p>A paced run ({@code --paced-warm-up-ms W}; {@code --rate} is then the wall-clock rate too):
 * one run as fast as it goes to warm the JIT, then one run per {@link Tuning}, each source reader
 * reading an event only once its time is due ({@link PacedRun}), each printing a {@code LATENCY}
 * line besides its {@code RESULT}.
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
        final long baseTimeMs = Long.parseLong(options.getOrDefault("base-time", "1700000000000"));
        final NexmarkGenerator generator = new NexmarkGenerator(Long.parseLong(options.getOrDefault("seed", "1")),
                Long.parseLong(options.getOrDefault("rate", "10000")), baseTimeMs, Integer.parseInt(options.getOrDefault("padding", "100")));
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
        final String stateBackend = options.getOrDefault("state-backend", "hashmap");
        if (options.containsKey("paced-warm-up-ms")) {
            // A JIT warm-up first, as fast as it goes over the same events (the other engines' JVMs are warm).
            runOnce(query, events, parallelism, checkpointMs, stateBackend, checkpoints.resolve("warm-up"), Tuning.DEFAULTS);
            for (final Tuning tuning : Tuning.values()) {
                final PacedRun paced = new PacedRun(baseTimeMs, Long.parseLong(options.get("paced-warm-up-ms")),
                        generator.timeOf(events - 1));
                InMemoryStreams.pacing = paced;
                final ResultFingerprint result = runOnce(query, events, parallelism, checkpointMs, stateBackend,
                        checkpoints.resolve("paced-" + tuning), tuning);
                InMemoryStreams.pacing = null;
                printLatency(query, tuning, result, paced.latencies());
            }
        } else {
            for (int run = 1; run <= runs; run++) {
                runOnce(query, events, parallelism, checkpointMs, stateBackend, checkpoints.resolve("run-" + run), Tuning.DEFAULTS);
            }
        }
        System.exit(0); // the MiniCluster's threads are done with; nothing else to wait for
    }

    /**
     * How the paced (latency) runs set Flink up: as it comes, and as a user who cares for latency
     * would — network buffers flushed at once instead of every 100 ms, watermarks emitted every 10 ms
     * instead of every 200 ms.
     */
    enum Tuning {
        DEFAULTS(-1, -1),
        LOW_LATENCY(0, 10);

        private final long bufferTimeoutMs;
        private final long watermarkIntervalMs;

        Tuning(final long bufferTimeoutMs, final long watermarkIntervalMs) {
            this.bufferTimeoutMs = bufferTimeoutMs;
            this.watermarkIntervalMs = watermarkIntervalMs;
        }

        void apply(final StreamExecutionEnvironment env) {
            if (bufferTimeoutMs >= 0) {
                env.setBufferTimeout(bufferTimeoutMs);
            }
            if (watermarkIntervalMs >= 0) {
                env.getConfig().setAutoWatermarkInterval(watermarkIntervalMs);
            }
        }
    }

    /**
     * {@code LATENCY query=Q5 tuning=DEFAULTS samples=… p50Us=… p99Us=… rows=… sumA=… sumB=… histogram=…}:
     * the histogram in nanoseconds, HdrHistogram's compressed encoding in Base64.
     */
    private static void printLatency(final NexmarkQuery query, final Tuning tuning, final ResultFingerprint result,
                                     final Histogram nanos) {
        final ByteBuffer buffer = ByteBuffer.allocate(nanos.getNeededByteBufferCapacity());
        final int length = nanos.encodeIntoCompressedByteBuffer(buffer);
        System.out.println("LATENCY query=" + query + " tuning=" + tuning + " samples=" + nanos.getTotalCount() + " p50Us="
                + nanos.getValueAtPercentile(50) / 1_000 + " p99Us=" + nanos.getValueAtPercentile(99) / 1_000 + " rows=" + result.rows()
                + " sumA=" + result.sumA() + " sumB=" + result.sumB() + " histogram="
                + Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length)));
    }

    /** One run of {@code query} over the generated streams in a fresh MiniCluster; prints its {@code RESULT} line and returns its result. */
    static ResultFingerprint runOnce(final NexmarkQuery query, final long events, final int parallelism, final long checkpointMs,
                                     final String stateBackend, final Path checkpoints, final Tuning tuning) throws Exception {
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
        tuning.apply(env);
        FlinkQueries.build(query, env, parallelism).sinkTo(new FingerprintSink(query)).name("fingerprint");
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
