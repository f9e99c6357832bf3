package io.streamgrid.perf.bench;

import io.streamgrid.client.Event;
import io.streamgrid.client.PublishResult;
import io.streamgrid.client.Publisher;
import io.streamgrid.client.PublisherOptions;
import io.streamgrid.client.StreamGridClient;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.ingest.KafkaLogs;
import io.streamgrid.jobs.kafka.KafkaBroker;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.perf.BenchContext;
import io.streamgrid.perf.Benchmark;
import io.streamgrid.perf.OpenLoop;
import io.streamgrid.perf.report.BenchResult;
import io.streamgrid.perf.report.Environment;
import io.streamgrid.perf.report.GoalCheck;
import io.streamgrid.perf.report.LatencyProfile;
import io.streamgrid.perf.report.Measurement;
import io.streamgrid.perf.report.Ratio;
import org.HdrHistogram.Histogram;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The publish API against the raw Kafka producer on the same broker (issue 44): click events
 * published by an application through {@link Publisher} — the member appends them to the schema's
 * Kafka topic — against a {@link KafkaProducer} sending the same events, already in the schema's
 * binary layout, straight to a topic of the same partition count with the member's producer
 * settings (idempotent, acks=all, linger 5 ms). The publish API over Chronicle (the member appends
 * to the log on its host) is reported beside them. Each run's records are counted in the log
 * afterwards: every subject must have written exactly the events it was given.
 */
public final class PublishBench implements Benchmark {
    private static final String GOAL = "Publish API over Kafka ≥ 0.7× the raw Kafka producer's events/s on the same broker";
    private static final int PARTITIONS = 4;
    private static final int WARM_UP_RUNS = 3;
    private static final long BASE_TIME = 1_767_225_600_000L;

    @Override
    public String name() {
        return "publish";
    }

    @Override
    public String title() {
        return "Publish API vs the raw Kafka producer: events/s and publish→acknowledgement latency";
    }

    @Override
    public BenchResult run(final BenchContext context) throws Exception {
        final int events = context.pick(200_000, 1_000_000);
        final int runs = context.pick(3, 5);
        final int rate = 20_000;
        final Duration latencyRun = context.pick(Duration.ofSeconds(5), Duration.ofSeconds(15));
        final Event[] published = new Event[events];
        final byte[][] encoded = new byte[events][];
        final int[] partitions = new int[events];
        prepare(published, encoded, partitions);

        final double[] oursKafka = new double[runs];
        final double[] raw = new double[runs];
        final double[] oursChronicle = new double[runs];
        final Histogram oursKafkaLatency;
        final Histogram rawLatency;
        final Histogram oursChronicleLatency;
        try (KafkaBroker broker = KafkaBroker.start(context.workDir().resolve("kafka"), context::progress)) {
            final Path kafkaConfig = Files.writeString(context.workDir().resolve("kafka.yaml"), String.join("\n",
                    "ingest:", "  kind: kafka", "  partitions: " + PARTITIONS, "  kafka:",
                    "    bootstrap-servers: " + broker.bootstrapServers(), "    topic-prefix: bench.", ""));
            try (EmbeddedGrid grid = EmbeddedGrid.start(context.workDir().resolve("grid-kafka"), Optional.of(kafkaConfig));
                 StreamGridClient client = StreamGridClient.connect(grid.clientSettings());
                 KafkaProducer<byte[], byte[]> producer = rawProducer(broker.bootstrapServers());
                 EventLog clickTopic = logCounter(broker, "bench.");
                 Publisher publisher = client.publisher("click", "bench", PublisherOptions.defaults())) {
                createTopic(broker.bootstrapServers(), "raw.click");
                // The broker's JIT warms up over several runs (each subject grew run after run with one warm-up): three each.
                context.progress("warm-up: " + WARM_UP_RUNS + " unrecorded runs of each");
                for (int run = 0; run < WARM_UP_RUNS; run++) {
                    publishAll(publisher, published, clickTopic);
                    sendAll(producer, encoded, partitions, broker.bootstrapServers());
                }
                for (int run = 0; run < runs; run++) {
                    if (run % 2 == 0) { // which goes first alternates: the later one of a pair meets a warmer broker
                        oursKafka[run] = publishAll(publisher, published, clickTopic);
                        raw[run] = sendAll(producer, encoded, partitions, broker.bootstrapServers());
                    } else {
                        raw[run] = sendAll(producer, encoded, partitions, broker.bootstrapServers());
                        oursKafka[run] = publishAll(publisher, published, clickTopic);
                    }
                    context.progress(String.format(Locale.ROOT, "run %d: publish API over Kafka %.0f events/s, raw producer %.0f events/s",
                            run + 1, oursKafka[run], raw[run]));
                }
                context.progress("latency: open loop at " + rate + "/s for " + latencyRun.toSeconds() + " s each (after warm-up)");
                oursKafkaLatency = publishLatency(client, "latency", published, rate, latencyRun);
                rawLatency = sendLatency(producer, encoded, partitions, rate, latencyRun);
            }
        }
        final Path chronicleConfig = Files.writeString(context.workDir().resolve("chronicle.yaml"), String.join("\n",
                "ingest:", "  dir: " + context.workDir().resolve("ingest"), "  partitions: " + PARTITIONS, ""));
        try (EmbeddedGrid grid = EmbeddedGrid.start(context.workDir().resolve("grid-chronicle"), Optional.of(chronicleConfig));
             StreamGridClient client = StreamGridClient.connect(grid.clientSettings());
             Publisher publisher = client.publisher("click", "bench", PublisherOptions.defaults())) {
            publishAll(publisher, published, null);
            for (int run = 0; run < runs; run++) {
                oursChronicle[run] = publishAll(publisher, published, null);
                context.progress(String.format(Locale.ROOT, "run %d: publish API over Chronicle %.0f events/s", run + 1, oursChronicle[run]));
            }
            oursChronicleLatency = publishLatency(client, "latency", published, rate, latencyRun);
        }
        context.emptyWorkDir();

        final List<Measurement> measurements = List.of(
                Measurement.of("publish API over Kafka (StreamGrid)", "ours", "events/s", oursKafka),
                Measurement.of("raw Kafka producer", "reference", "events/s", raw),
                Measurement.of("publish API over Chronicle (StreamGrid)", "ours", "events/s", oursChronicle));
        final double ratio = measurements.get(0).median() / measurements.get(1).median();
        final List<LatencyProfile> latencies = List.of(
                LatencyProfile.ofNanos("publish API over Kafka (StreamGrid)", "publish→ack", rate, oursKafkaLatency, 0),
                LatencyProfile.ofNanos("raw Kafka producer", "send→ack", rate, rawLatency, 0),
                LatencyProfile.ofNanos("publish API over Chronicle (StreamGrid)", "publish→ack", rate, oursChronicleLatency, 0));
        return new BenchResult(name(), title(),
                events + " click events per run (5 fields: user, ts, item, category, action), " + PARTITIONS + " partitions, one"
                        + " Kafka 4.4 broker (KRaft, a child JVM) and one StreamGrid member in the benchmark's JVM, the client too. "
                        + "Ours: Publisher.publish(Event) of every event, then flush (defaults: 20,000 in flight), timed from the"
                        + " first publish, one publisher for every run as one raw producer is; over Kafka the publisher"
                        + " validates and encodes each event in the application and produces it to topic bench.click itself"
                        + " (idempotent, acks=all, linger 5 ms), over Chronicle it sends batches of up to 2,000 to the member, which"
                        + " validates and appends them. Raw: KafkaProducer.send of the same events already encoded in the schema's"
                        + " binary layout, partition by key, then flush. " + runs + " runs each after " + WARM_UP_RUNS + " warm-up runs each,"
                        + " alternating, which goes first alternating too. Latency: open loop at " + rate
                        + "/s, from each event's scheduled time to its acknowledgement, " + latencyRun.toSeconds()
                        + " s after a warm-up of the same length.",
                context.pick("quick", "full"), Instant.now().toString(), Environment.current(), measurements, latencies,
                List.of(new Ratio("publish API over Kafka / raw producer, events/s", ratio, "1 = as fast as the raw producer; the goal is ≥ 0.7"),
                        new Ratio("publish API over Chronicle / over Kafka, events/s",
                                measurements.get(2).median() / measurements.get(0).median(), "the member-side Chronicle append, reported"),
                        Ratio.of("publish API over Kafka / raw producer, p99", latencies.get(0).p99Us(), latencies.get(1).p99Us(),
                                "below 1: lower latency than raw")),
                List.of(GoalCheck.of(GOAL, ratio >= 0.7, String.format(Locale.ROOT, "%.2f× the raw producer (%,.0f vs %,.0f events/s)",
                        ratio, measurements.get(0).median(), measurements.get(1).median()))),
                List.of("What the publish API over Kafka adds over the raw producer, per event: the fields validated against "
                                + "the schema and encoded in its layout in the application (what the members would do), the "
                                + "publisher's slot and sequence in the record, a future completed in sequence order; once a second "
                                + "the publisher's ledger reported to its member. No member is on an event's path (decision record 0009).",
                        "Over Chronicle an event goes through a member: batches through the Hazelcast client to the member "
                                + "that owns the publisher's ledger entry, which validates, appends, and writes the ledger with its "
                                + "backup — one batch at a time per publisher.",
                        "Everything shares 2 cores: the broker, the member, the client and the benchmark thread.",
                        "Each run's topic is counted afterwards (end offsets before and after): every subject wrote exactly the "
                                + "events it was given, or the benchmark fails."));
    }

    private static void prepare(final Event[] published, final byte[][] encoded, final int[] partitions) {
        final SchemaRecord record = new SchemaRecord(EventType.CLICK.schema().layout());
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[EventType.CLICK.schema().layout().length()]);
        for (int i = 0; i < published.length; i++) {
            final long user = i % 10_000;
            published[i] = Event.builder().set("user", user).set("ts", BASE_TIME + i).set("item", i % 5_000)
                    .set("category", i % 20).set("action", "click").build();
            record.wrapForWrite(buffer, 0).sequence(i + 1).setLong(0, user).setTimestamp(1, BASE_TIME + i).setLong(2, i % 5_000)
                    .setInt(3, i % 20).setEnum(4, "click");
            encoded[i] = new byte[record.length()];
            buffer.getBytes(0, encoded[i]);
            partitions[i] = Math.floorMod(Long.hashCode(user), PARTITIONS);
        }
    }

    /**
     * Publishes every event through {@code publisher} (one for all runs, as the raw producer is),
     * flushes; events/s from the first publish to the last acknowledgement. Checks the topic grew
     * by exactly that many (when given).
     */
    private static double publishAll(final Publisher publisher, final Event[] events, final EventLog counted) {
        final long before = counted == null ? 0 : records(counted);
        final AtomicLong failed = new AtomicLong();
        final long start = System.nanoTime();
        for (final Event event : events) {
            publisher.publish(event).whenComplete((r, e) -> {
                if (e != null) {
                    failed.incrementAndGet();
                }
            });
        }
        publisher.flush();
        final double rate = events.length / ((System.nanoTime() - start) / 1e9);
        if (failed.get() > 0) {
            throw new IllegalStateException(failed.get() + " of " + events.length + " published events were not acknowledged");
        }
        if (counted != null && records(counted) - before != events.length) {
            throw new IllegalStateException("the topic grew by " + (records(counted) - before) + " records, " + events.length + " published");
        }
        return rate;
    }

    private static double sendAll(final KafkaProducer<byte[], byte[]> producer, final byte[][] encoded, final int[] partitions,
                                  final String bootstrap) throws Exception {
        final long before = rawRecords(bootstrap);
        final AtomicLong failed = new AtomicLong();
        final long start = System.nanoTime();
        for (int i = 0; i < encoded.length; i++) {
            producer.send(new ProducerRecord<>("raw.click", partitions[i], null, encoded[i]), (m, e) -> {
                if (e != null) {
                    failed.incrementAndGet();
                }
            });
        }
        producer.flush();
        final double rate = encoded.length / ((System.nanoTime() - start) / 1e9);
        if (failed.get() > 0 || rawRecords(bootstrap) - before != encoded.length) {
            throw new IllegalStateException("the raw producer lost records: " + failed.get() + " failed, topic grew by "
                    + (rawRecords(bootstrap) - before) + " of " + encoded.length);
        }
        return rate;
    }

    private static Histogram publishLatency(final StreamGridClient client, final String id, final Event[] events, final int rate,
                                            final Duration duration) throws Exception {
        try (Publisher publisher = client.publisher("click", id + "-" + System.nanoTime(), PublisherOptions.defaults())) {
            final Histogram warmUp = OpenLoop.newHistogram();
            timedPublish(publisher, events, rate, duration, warmUp);
            final Histogram measured = OpenLoop.newHistogram();
            timedPublish(publisher, events, rate, duration, measured);
            return measured;
        }
    }

    private static void timedPublish(final Publisher publisher, final Event[] events, final int rate, final Duration duration,
                                     final Histogram into) throws Exception {
        final List<CompletableFuture<PublishResult>> last = new ArrayList<>(1);
        OpenLoop.run(rate, duration, (sequence, scheduled) -> {
            final CompletableFuture<PublishResult> acked = publisher.publish(events[(int) (sequence % events.length)]);
            acked.whenComplete((r, e) -> {
                synchronized (into) {
                    into.recordValue(Math.max(0, System.nanoTime() - scheduled));
                }
            });
            last.clear();
            last.add(acked);
        }, OpenLoop.newHistogram(), OpenLoop.Wait.PARK);
        publisher.flush();
        last.get(0).get(1, TimeUnit.MINUTES); // fails the run if the last event was not acknowledged
    }

    private static Histogram sendLatency(final KafkaProducer<byte[], byte[]> producer, final byte[][] encoded, final int[] partitions,
                                         final int rate, final Duration duration) throws Exception {
        final Histogram warmUp = OpenLoop.newHistogram();
        timedSend(producer, encoded, partitions, rate, duration, warmUp);
        final Histogram measured = OpenLoop.newHistogram();
        timedSend(producer, encoded, partitions, rate, duration, measured);
        return measured;
    }

    private static void timedSend(final KafkaProducer<byte[], byte[]> producer, final byte[][] encoded, final int[] partitions,
                                  final int rate, final Duration duration, final Histogram into) throws Exception {
        OpenLoop.run(rate, duration, (sequence, scheduled) -> {
            final int i = (int) (sequence % encoded.length);
            producer.send(new ProducerRecord<>("raw.click", partitions[i], null, encoded[i]), (m, e) -> {
                if (e == null) {
                    synchronized (into) {
                        into.recordValue(Math.max(0, System.nanoTime() - scheduled));
                    }
                }
            });
        }, OpenLoop.newHistogram(), OpenLoop.Wait.PARK);
        producer.flush();
    }

    private static KafkaProducer<byte[], byte[]> rawProducer(final String bootstrap) {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 5,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName()));
    }

    private static void createTopic(final String bootstrap, final String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            admin.createTopics(List.of(new NewTopic(topic, PARTITIONS, (short) 1))).all().get(1, TimeUnit.MINUTES);
        }
    }

    /** The log of the click topic the member writes, for counting its records; created with the partition count if missing. */
    private static EventLog logCounter(final KafkaBroker broker, final String prefix) {
        return new KafkaLogs(broker.bootstrapServers(), prefix, (short) 1).openOrCreate(EventType.CLICK.schema(), "click", PARTITIONS);
    }

    private static long records(final EventLog log) {
        long records = 0;
        for (int p = 0; p < log.partitions(); p++) {
            records += log.lastIndexNow(p) + 1;
        }
        return records;
    }

    private static long rawRecords(final String bootstrap) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap))) {
            final Map<org.apache.kafka.common.TopicPartition, org.apache.kafka.clients.admin.OffsetSpec> request = new java.util.HashMap<>();
            for (int p = 0; p < PARTITIONS; p++) {
                request.put(new org.apache.kafka.common.TopicPartition("raw.click", p), org.apache.kafka.clients.admin.OffsetSpec.latest());
            }
            long records = 0;
            for (final var info : admin.listOffsets(request).all().get(1, TimeUnit.MINUTES).values()) {
                records += info.offset();
            }
            return records;
        }
    }
}
