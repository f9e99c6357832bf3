package io.streamgrid.perf.bench;

import io.streamgrid.jobs.window.Counter;
import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.schema.KeyPartitions;
import com.hazelcast.jet.JetService;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.config.JobConfig;
import com.hazelcast.jet.config.ProcessingGuarantee;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.Jobs;
import io.streamgrid.jobs.event.BuiltInEvents;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.KafkaLogs;
import io.streamgrid.jobs.kafka.KafkaBroker;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.jobs.window.WindowPolicy;
import io.streamgrid.perf.BenchContext;
import io.streamgrid.perf.Benchmark;
import io.streamgrid.perf.report.BenchResult;
import io.streamgrid.perf.report.Environment;
import io.streamgrid.perf.report.GoalCheck;
import io.streamgrid.perf.report.Measurement;
import io.streamgrid.perf.report.Ratio;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.LongSerializer;
import org.apache.kafka.common.serialization.Serdes;
import org.apache.kafka.common.utils.Bytes;
import org.apache.kafka.streams.KafkaStreams;
import org.apache.kafka.streams.KeyValue;
import org.apache.kafka.streams.StoreQueryParameters;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.kstream.Consumed;
import org.apache.kafka.streams.kstream.Materialized;
import org.apache.kafka.streams.kstream.TimeWindows;
import org.apache.kafka.streams.kstream.Windowed;
import org.apache.kafka.streams.state.BuiltInDslStoreSuppliers;
import org.apache.kafka.streams.state.KeyValueIterator;
import org.apache.kafka.streams.state.QueryableStoreTypes;
import org.apache.kafka.streams.state.ReadOnlyWindowStore;
import org.apache.kafka.streams.state.WindowStore;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * Windowed count over Kafka (issue 44): StreamGrid reading a Kafka topic against Kafka Streams 4.x
 * doing the same count on the same topic and broker, both exactly-once with a commit / snapshot
 * every second, and StreamGrid over Chronicle beside them. The events are the windowing
 * benchmark's (same generator and seed, 10,000 keys) written once to the topic as a Kafka-native
 * producer writes them — the key as the Kafka key, the event time as the record's timestamp, the
 * schema's binary record as the value — and once to a Chronicle log. The windows are 10 s sliding
 * by 1 s (10 per event) rather than the windowing benchmark's 20 ms slide (500 per event), which
 * Kafka Streams' per-window aggregation could not drain in a benchmark's time.
 *
 * <p>Each subject drains the whole topic: StreamGrid until the sum of its emitted window counts
 * equals the oracle's {@code events × 10}; Kafka Streams until it has processed every record, and
 * then its window store (read through interactive queries) must sum to the same total, else the run
 * fails — a figure is reported only for a subject that counted right.
 */
public final class KafkaStreamsBench implements Benchmark {
    private static final String GOAL = "StreamGrid over Kafka ≥ 3× Kafka Streams' events/s, exactly-once on both, results equal";
    static final long SIZE_MS = 10_000;
    static final long SLIDE_MS = 1_000;
    private static final int PARTITIONS = WindowingBench.PARTITIONS;
    private static final String STORE = "counts";
    private static final AtomicInteger RUN_IDS = new AtomicInteger();

    @Override
    public String name() {
        return "kafka-streams";
    }

    @Override
    public String title() {
        return "windowed count over Kafka, exactly-once: StreamGrid vs Kafka Streams (and StreamGrid over Chronicle)";
    }

    @Override
    public BenchResult run(final BenchContext context) throws Exception {
        final int events = context.pick(1_000_000, 4_000_000);
        final int runs = context.pick(2, 3);
        final long expectedTally = (long) events * (SIZE_MS / SLIDE_MS);
        final WindowingBench.Backlog chronicle = new WindowingBench.Backlog(context.workDir().resolve("ingest-log"), events);
        final long[] keys = new long[events];
        final long[] timestamps = new long[events];
        context.progress("generating " + events + " events over " + WindowingBench.KEYS + " keys into " + chronicle.dir());
        WindowingBench.generate(chronicle, keys, timestamps);

        final double[] oursKafka = new double[runs];
        final double[] streams = new double[runs];
        final double[] oursChronicle = new double[runs];
        try (KafkaBroker broker = KafkaBroker.start(context.workDir().resolve("kafka"), context::progress);
             EmbeddedGrid grid = EmbeddedGrid.start(context.workDir().resolve("member"))) {
            final KafkaLogs kafka = new KafkaLogs(broker.bootstrapServers(), "bench.", (short) 1);
            kafka.openOrCreate(EventType.REQUEST.schema(), EventType.REQUEST.schema().name(), PARTITIONS).close();
            keepForever(kafka.bootstrapServers(), kafka.topic(EventType.REQUEST.schema().name()));
            context.progress("producing the same events to topic " + kafka.topic(EventType.REQUEST.schema().name()));
            produce(kafka, keys, timestamps);
            final JetService jet = grid.member().getJet();
            final WindowedJob<Counter> job = SlidingCountJob.of(new WindowPolicy(WindowDefinition.sliding(SIZE_MS, SLIDE_MS), 0, 0),
                    WindowingBench.SENTINEL_KEY);
            final JobOptions options = JobOptions.of(chronicle.dir()).withLocalParallelism(WindowingBench.PARALLELISM);
            final Function<JetService, Job> overKafka = j -> Jobs.submit(j, job, options.withKafka(kafka), null, jobConfig(job.name()));
            final Function<JetService, Job> overChronicle = j -> Jobs.submit(j, job, options, null, jobConfig(job.name()));

            context.progress("warm-up: each subject once");
            Drain.drain(context, jet, overKafka, events, expectedTally, ResultTally.STREAMGRID);
            kafkaStreams(context, kafka, events, expectedTally);
            Drain.drain(context, jet, overChronicle, events, expectedTally, ResultTally.STREAMGRID);
            for (int run = 0; run < runs; run++) {
                oursKafka[run] = Drain.drain(context, jet, overKafka, events, expectedTally, ResultTally.STREAMGRID);
                streams[run] = kafkaStreams(context, kafka, events, expectedTally);
                oursChronicle[run] = Drain.drain(context, jet, overChronicle, events, expectedTally, ResultTally.STREAMGRID);
                context.progress(String.format(Locale.ROOT, "run %d/%d: StreamGrid over Kafka %,.0f, Kafka Streams %,.0f, "
                        + "StreamGrid over Chronicle %,.0f events/s", run + 1, runs, oursKafka[run], streams[run], oursChronicle[run]));
            }
        }
        context.emptyWorkDir();

        final List<Measurement> measurements = List.of(
                Measurement.of("StreamGrid over Kafka (exactly-once, 1 s snapshots)", "ours", "events/s", oursKafka),
                Measurement.of("Kafka Streams 4.4 (exactly_once_v2, 1 s commits, in-memory window store)", "reference", "events/s", streams),
                Measurement.of("StreamGrid over Chronicle (exactly-once, 1 s snapshots)", "ours", "events/s", oursChronicle));
        final double ratio = measurements.get(0).median() / measurements.get(1).median();
        final List<String> notes = new ArrayList<>(List.of(
                "Both engines counted every window of every key right in every run (StreamGrid: the emitted counts sum to "
                        + "events × 10; Kafka Streams: its window store sums to the same); a run that does not fails the benchmark.",
                "Kafka Streams' time ends when its last record has been processed (its counts are in the store then, its "
                        + "last commit may still be due): this favours Kafka Streams, never StreamGrid.",
                "StreamGrid reads the record's value only; Kafka Streams groups by the Kafka key without a repartition "
                        + "topic (the topic is partitioned by key already).",
                "Per round: StreamGrid over Kafka / Kafka Streams = " + Rounds.list(Rounds.ratios(oursKafka, streams)) + "."));
        return new BenchResult(name(), title(), setup(events, runs), context.pick("quick", "full"), Instant.now().toString(),
                Environment.current(), measurements, List.of(),
                List.of(Ratio.of("StreamGrid over Kafka / Kafka Streams, events/s", measurements.get(0).median(),
                                measurements.get(1).median(), "the goal is ≥ 3"),
                        Ratio.of("StreamGrid over Kafka / StreamGrid over Chronicle, events/s", measurements.get(0).median(),
                                measurements.get(2).median(), "what reading Kafka costs against the local log")),
                List.of(GoalCheck.of(GOAL, ratio >= 3, String.format(Locale.ROOT, "%.2f× (%,.0f vs %,.0f events/s)", ratio,
                        measurements.get(0).median(), measurements.get(1).median()))),
                notes);
    }

    private static String setup(final int events, final int runs) {
        return String.format(Locale.ROOT, "%,d REQUEST events (the windowing benchmark's generator: keys uniform over %,d "
                        + "source IPs, event time advancing %,d events per second) in a Kafka topic of %d partitions on one "
                        + "development broker (Kafka 4.4, KRaft, child JVM) and in a Chronicle log of %d partitions; "
                        + "sliding window %d s, slide %d s (%d windows per event). StreamGrid: one embedded member, local "
                        + "parallelism %d, EXACTLY_ONCE with a snapshot every second, results tallied. Kafka Streams: "
                        + "in this JVM, 2 stream threads, exactly_once_v2, commit interval 1 s, groupByKey → "
                        + "windowedBy(TimeWindows of %d s advancing %d s) → count() into an in-memory window store (DSL "
                        + "store suppliers: in-memory; its changelog topic written in the same transactions) with its "
                        + "default 10 MB cache. Throughput = events / time from start to the full count. One warm-up "
                        + "run per subject, then %d rounds, subjects alternating.", events, WindowingBench.KEYS,
                WindowingBench.EVENTS_PER_EVENT_SECOND, PARTITIONS, PARTITIONS, SIZE_MS / 1000, SLIDE_MS / 1000,
                SIZE_MS / SLIDE_MS, WindowingBench.PARALLELISM, SIZE_MS / 1000, SLIDE_MS / 1000, runs);
    }

    /**
     * Turns time-based retention off for {@code topic}: its records carry the generator's event
     * times (2023), and the broker's retention check, every 5 minutes, would otherwise delete them
     * mid-run — a first run of this benchmark saw Kafka Streams stop at 93 % when it did.
     */
    private static void keepForever(final String bootstrapServers, final String topic) throws Exception {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers))) {
            admin.incrementalAlterConfigs(Map.of(new ConfigResource(ConfigResource.Type.TOPIC, topic),
                    List.of(new AlterConfigOp(new ConfigEntry(TopicConfig.RETENTION_MS_CONFIG, "-1"), AlterConfigOp.OpType.SET))))
                    .all().get(1, TimeUnit.MINUTES);
        }
    }

    private static JobConfig jobConfig(final String name) {
        return new JobConfig().setName(name + "-kafka-bench-" + RUN_IDS.incrementAndGet())
                .setProcessingGuarantee(ProcessingGuarantee.EXACTLY_ONCE).setSnapshotIntervalMillis(1_000);
    }

    /**
     * Writes the events as a Kafka-native producer would — key, event time as timestamp, the binary
     * record as value — each to its key's log partition, then a sentinel per partition (as
     * {@link WindowingBench#generate} appends) that moves StreamGrid's watermark past every window.
     */
    private static void produce(final KafkaLogs kafka, final long[] keys, final long[] timestamps) throws Exception {
        final String topic = kafka.topic(EventType.REQUEST.schema().name());
        final BuiltInEvents records = new BuiltInEvents();
        try (KafkaProducer<Long, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.LINGER_MS_CONFIG, 5, ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, LongSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName()))) {
            for (int i = 0; i < keys.length; i++) {
                send(producer, topic, KeyPartitions.partitionOf(keys[i], PARTITIONS), keys[i], timestamps[i],
                        records.request(timestamps[i], i, keys[i], 0x0A00_FFFF, 512, 200));
            }
            final long end = timestamps[timestamps.length - 1] + WindowingBench.SIZE_MS + WindowingBench.SLIDE_MS;
            for (int p = 0; p < PARTITIONS; p++) {
                send(producer, topic, p, WindowingBench.SENTINEL_KEY, end, records.request(end, keys.length + p,
                        WindowingBench.SENTINEL_KEY, 0, 0, 200));
            }
            producer.flush();
        }
    }

    private static void send(final KafkaProducer<Long, byte[]> producer, final String topic, final int partition, final long key,
                             final long time, final SchemaRecord record) {
        final byte[] value = new byte[record.length()];
        record.buffer().getBytes(record.offset(), value);
        producer.send(new ProducerRecord<>(topic, partition, time, key, value));
    }

    /**
     * One Kafka Streams run over the whole topic under a new application id (so from the first
     * offset, with empty state); returns events/s after checking that its window store sums to
     * {@code expectedTally} over the real keys.
     */
    private static double kafkaStreams(final BenchContext context, final KafkaLogs kafka, final int events, final long expectedTally)
            throws Exception {
        final int run = RUN_IDS.incrementAndGet();
        final Properties config = new Properties();
        config.put(StreamsConfig.APPLICATION_ID_CONFIG, "bench-windowed-count-" + run);
        config.put(StreamsConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        config.put(StreamsConfig.PROCESSING_GUARANTEE_CONFIG, StreamsConfig.EXACTLY_ONCE_V2);
        config.put(StreamsConfig.COMMIT_INTERVAL_MS_CONFIG, 1_000);
        config.put(StreamsConfig.NUM_STREAM_THREADS_CONFIG, 2);
        config.put(StreamsConfig.STATE_DIR_CONFIG, context.workDir().resolve("kafka-streams-state").toString());
        config.put(StreamsConfig.consumerPrefix("auto.offset.reset"), "earliest");
        // State in memory, as StreamGrid's (which snapshots it); RocksDB is Kafka Streams' default store.
        config.put(StreamsConfig.DSL_STORE_SUPPLIERS_CLASS_CONFIG, BuiltInDslStoreSuppliers.InMemoryDslStoreSuppliers.class);
        final LongAdder processed = new LongAdder();
        final StreamsBuilder builder = new StreamsBuilder();
        builder.stream(kafka.topic(EventType.REQUEST.schema().name()), Consumed.with(Serdes.Long(), Serdes.ByteArray()))
                .filter((key, value) -> key != null) // none here; a log's control records have no key
                .peek((key, value) -> processed.increment())
                .groupByKey()
                .windowedBy(TimeWindows.ofSizeAndGrace(Duration.ofMillis(SIZE_MS), Duration.ofSeconds(1)).advanceBy(Duration.ofMillis(SLIDE_MS)))
                .count(Materialized.<Long, Long, WindowStore<Bytes, byte[]>>as(STORE).withKeySerde(Serdes.Long()).withValueSerde(Serdes.Long())
                        .withRetention(Duration.ofHours(1)));
        final long records = events + PARTITIONS;
        final KafkaStreams streams = new KafkaStreams(builder.build(), config);
        final long start = System.nanoTime();
        try {
            streams.start();
            final long deadline = start + Duration.ofSeconds(180 + events / 5_000).toNanos();
            long nextReport = start + Duration.ofSeconds(10).toNanos();
            while (processed.sum() < records) {
                final long now = System.nanoTime();
                if (streams.state() == KafkaStreams.State.ERROR || now > deadline) {
                    throw new IllegalStateException(String.format(Locale.ROOT, "Kafka Streams (%s) processed %,d of %,d records",
                            streams.state(), processed.sum(), records));
                }
                if (now > nextReport) {
                    context.progress(String.format(Locale.ROOT, "  Kafka Streams: %.0f%% of the records so far", 100.0 * processed.sum() / records));
                    nextReport = now + Duration.ofSeconds(10).toNanos();
                }
                Thread.sleep(2);
            }
            final long elapsed = System.nanoTime() - start;
            // The last record was counted by peek() just before its windows were: give the store a moment, never more.
            long tally = storeTally(streams);
            final long settle = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (tally < expectedTally && System.nanoTime() < settle) {
                Thread.sleep(100);
                tally = storeTally(streams);
            }
            if (tally != expectedTally) {
                throw new IllegalStateException(String.format(Locale.ROOT, "Kafka Streams' window store sums to %,d, the oracle "
                        + "expects %,d", tally, expectedTally));
            }
            context.progress(String.format(Locale.ROOT, "  Kafka Streams: every record processed after %.0f ms; the store sums to %,d",
                    elapsed / 1e6, tally));
            return events / (elapsed / 1e9);
        } finally {
            streams.close(Duration.ofSeconds(30));
            streams.cleanUp();
        }
    }

    /** The sum of every window count of a real key in the store, read through interactive queries once the app runs. */
    private static long storeTally(final KafkaStreams streams) throws InterruptedException {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try {
                final ReadOnlyWindowStore<Long, Long> store = streams.store(
                        StoreQueryParameters.fromNameAndType(STORE, QueryableStoreTypes.windowStore()));
                long sum = 0;
                try (KeyValueIterator<Windowed<Long>, Long> all = store.all()) {
                    while (all.hasNext()) {
                        final KeyValue<Windowed<Long>, Long> window = all.next();
                        if (window.key.key() != WindowingBench.SENTINEL_KEY) {
                            sum += window.value;
                        }
                    }
                }
                return sum;
            } catch (final org.apache.kafka.streams.errors.InvalidStateStoreException notYet) {
                if (System.nanoTime() > deadline) {
                    throw notYet;
                }
                Thread.sleep(100);
            }
        }
    }
}
