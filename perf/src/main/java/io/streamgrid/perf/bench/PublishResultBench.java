package io.streamgrid.perf.bench;

import com.hazelcast.jet.Job;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.client.Delta;
import io.streamgrid.client.DeltaListener;
import io.streamgrid.client.Event;
import io.streamgrid.client.Publisher;
import io.streamgrid.client.StreamGridClient;
import io.streamgrid.client.Subscription;
import io.streamgrid.client.SubscriptionOptions;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.KafkaLogs;
import io.streamgrid.jobs.kafka.KafkaBroker;
import io.streamgrid.jobs.keyed.KeyedContext;
import io.streamgrid.jobs.keyed.KeyedFunction;
import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.StateCodec;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.perf.BenchContext;
import io.streamgrid.perf.Benchmark;
import io.streamgrid.perf.OpenLoop;
import io.streamgrid.perf.report.BenchResult;
import io.streamgrid.perf.report.Environment;
import io.streamgrid.perf.report.LatencyProfile;
import io.streamgrid.perf.report.Ratio;
import org.HdrHistogram.Histogram;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Publish → result latency (issue 44): an application publishes click events at a fixed rate
 * through the publish API; an exactly-once keyed job (1 s snapshots) writes each event into a
 * state map; the same application follows that map with a subscription. Each event's latency runs
 * from its scheduled publish time (open loop: no coordinated omission) to the moment its entry
 * reaches the subscriber — the whole path an application sees: publish batching, the member's
 * append to the log, the job reading it, the map write, the subscription's delivery. Over
 * Chronicle and over Kafka (a development broker on this machine); every event's result must
 * arrive, or the run fails.
 */
public final class PublishResultBench implements Benchmark {
    static final String MAP = "state.bench-published";
    private static final int PARTITIONS = 4;
    private static final int USERS = 10_000;

    @Override
    public String name() {
        return "publish-result";
    }

    @Override
    public String title() {
        return "Publish → result latency: published event to its keyed update at a subscriber, over Chronicle and over Kafka";
    }

    @Override
    public BenchResult run(final BenchContext context) throws Exception {
        final int rate = 2_000;
        final Duration warmUp = context.pick(Duration.ofSeconds(5), Duration.ofSeconds(10));
        final Duration measured = context.pick(Duration.ofSeconds(10), Duration.ofSeconds(30));
        final Histogram chronicle;
        final Histogram kafka;
        final Path chronicleConfig = Files.writeString(context.workDir().resolve("chronicle.yaml"), String.join("\n",
                "ingest:", "  dir: " + context.workDir().resolve("ingest"), "  partitions: " + PARTITIONS, ""));
        try (EmbeddedGrid grid = EmbeddedGrid.start(context.workDir().resolve("grid-chronicle"), Optional.of(chronicleConfig))) {
            context.progress("over Chronicle: open loop at " + rate + "/s, " + warmUp.toSeconds() + " s warm-up, "
                    + measured.toSeconds() + " s measured");
            chronicle = measure(context, grid, JobOptions.of(context.workDir().resolve("ingest")), rate, warmUp, measured);
        }
        try (KafkaBroker broker = KafkaBroker.start(context.workDir().resolve("kafka"), context::progress)) {
            final Path kafkaConfig = Files.writeString(context.workDir().resolve("kafka.yaml"), String.join("\n",
                    "ingest:", "  kind: kafka", "  partitions: " + PARTITIONS, "  kafka:",
                    "    bootstrap-servers: " + broker.bootstrapServers(), "    topic-prefix: bench.", ""));
            try (EmbeddedGrid grid = EmbeddedGrid.start(context.workDir().resolve("grid-kafka"), Optional.of(kafkaConfig))) {
                context.progress("over Kafka: the same");
                kafka = measure(context, grid, JobOptions.of(context.workDir().resolve("ingest"))
                        .withKafka(new KafkaLogs(broker.bootstrapServers(), "bench.", (short) 1)), rate, warmUp, measured);
            }
        }
        context.emptyWorkDir();
        final List<LatencyProfile> latencies = List.of(
                LatencyProfile.ofNanos("StreamGrid over Chronicle", "publish→result at a subscriber", rate, chronicle, 0),
                LatencyProfile.ofNanos("StreamGrid over Kafka", "publish→result at a subscriber", rate, kafka, 0));
        return new BenchResult(name(), title(), String.format(Locale.ROOT, "One embedded member (ingest partitions %d) and, in "
                        + "this JVM, an application that publishes click events of %,d users (publisher defaults: batches of "
                        + "up to 2,000, 20,000 in flight) at %,d events/s, open loop, %d s warm-up then %d s measured, and "
                        + "subscribes to %s (every-change delivery). The job (keyed by user, EXACTLY_ONCE, 1 s snapshots) "
                        + "puts each event under its own key, so every event is one entry reaching the subscriber. Kafka: "
                        + "one development broker on this machine (Kafka 4.4, KRaft), the application producing to its topic itself (idempotent, acks=all; decision record 0009).",
                PARTITIONS, USERS, rate, warmUp.toSeconds(), measured.toSeconds(), MAP), context.pick("quick", "full"),
                Instant.now().toString(), Environment.current(), List.of(), latencies,
                List.of(Ratio.of("over Kafka / over Chronicle, p50", latencies.get(1).p50Us(), latencies.get(0).p50Us(),
                                "what the replicated log adds at the median"),
                        Ratio.of("over Kafka / over Chronicle, p99", latencies.get(1).p99Us(), latencies.get(0).p99Us(),
                                "and at the 99th percentile")),
                List.of(),
                List.of("Every event's entry reached the subscriber in every run (counted); a missing one fails the run.",
                        "No goal was set for this figure; it is reported so that a change to any part of the path shows."));
    }

    /** Warm-up, then a measured open-loop run; the histogram of publish → result latencies in nanoseconds. */
    private static Histogram measure(final BenchContext context, final EmbeddedGrid grid, final JobOptions options, final int rate,
                                     final Duration warmUp, final Duration measured) throws Exception {
        final int capacity = (int) (rate * (warmUp.toSeconds() + measured.toSeconds()) + 16);
        final long[] scheduled = new long[capacity];
        final long warmUpCalls = (long) (rate * (double) warmUp.toNanos() / 1e9);
        final Histogram latencies = OpenLoop.newHistogram();
        final AtomicLong arrived = new AtomicLong();
        try (StreamGridClient client = StreamGridClient.connect(grid.clientSettings());
             Publisher publisher = client.publisher("click", "bench-" + System.nanoTime())) {
            publisher.publish(event(0, 0)).get(1, TimeUnit.MINUTES); // the log exists before the job starts
            final Job job = Jobs.submit(grid.member().getJet(), job(), options.withSnapshotInterval(1_000));
            try (Subscription subscription = client.subscribe(MAP, "this > 0", new DeltaListener() {
                @Override
                public void onSnapshot(final Map<Object, Object> entries) {
                }

                @Override
                public void onDelta(final Delta delta) {
                    if (delta.kind() == Delta.Kind.ENTER && delta.value() instanceof Long boxed && boxed > 0) {
                        final long now = System.nanoTime();
                        final long index = boxed;
                        if (index > warmUpCalls) {
                            synchronized (latencies) {
                                latencies.recordValue(Math.max(0, now - scheduled[(int) index]));
                            }
                        }
                        arrived.incrementAndGet();
                    }
                }
            }, SubscriptionOptions.defaults())) {
                final long[] next = {1};
                OpenLoop.run(rate, warmUp.plus(measured), (sequence, scheduledNanos) -> {
                    final long index = next[0]++;
                    scheduled[(int) index] = scheduledNanos;
                    publisher.publish(event(index, System.currentTimeMillis()));
                }, OpenLoop.newHistogram(), OpenLoop.Wait.PARK);
                publisher.flush();
                final long published = next[0] - 1;
                final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (arrived.get() < published && System.nanoTime() < deadline) {
                    Thread.sleep(20);
                }
                if (arrived.get() != published) {
                    throw new IllegalStateException(String.format(Locale.ROOT, "%,d events published, %,d results reached the "
                            + "subscriber", published, arrived.get()));
                }
                context.progress(String.format(Locale.ROOT, "  %,d events, every result at the subscriber; p50 %.1f ms, p99 %.1f ms",
                        published, latencies.getValueAtPercentile(50) / 1e6, latencies.getValueAtPercentile(99) / 1e6));
            } finally {
                Drain.cancelAndWait(job);
            }
        }
        return latencies;
    }

    private static Event event(final long index, final long now) {
        return Event.builder().set("user", index % USERS).set("ts", now).set("item", index).set("category", (int) (index % 20))
                .set("action", "click").build();
    }

    private static KeyedJob<long[]> job() {
        return KeyedJob.<long[]>builder("bench-published", EventType.CLICK.schema()).function(new PutEachEvent())
                .state(StateCodec.longs(1)).time(TimePolicy.of(0, 3_600_000)).writes(MAP).build();
    }

    /** Puts each event's index under itself: one entry per event, so each reaches the subscriber as an ENTER. */
    static final class PutEachEvent implements KeyedFunction<long[]> {
        private static final long serialVersionUID = 1L;

        @Override
        public void onEvent(final SchemaRecord event, final KeyedContext<long[]> context) {
            final long index = event.getLong(2);
            context.put(MAP, index, index);
        }
    }
}
