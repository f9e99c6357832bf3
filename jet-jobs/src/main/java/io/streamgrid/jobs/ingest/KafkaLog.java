package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;

import java.io.IOException;
import java.io.StringReader;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The log of one {@link EventSchema} in a Kafka topic ({@link KafkaLogs}): records in the schema's
 * binary layout as values (no key: the partition is chosen by the log, by key hash, as in
 * {@link SchemaLog}), control records likewise; a record's index is its offset. Its schema is
 * checked against the one recorded for the topic as {@link SchemaLog} does against its metadata
 * file, so a reader never misreads.
 *
 * <p>Appends go through one idempotent producer (acks from every in-sync replica; a retried send
 * is never written twice) and are asynchronous: {@link #flush()} blocks until they are durable —
 * a job flushes the logs it emits into before each snapshot completes. Readers are
 * read_committed.
 */
public final class KafkaLog implements EventLog {
    private static final int MAX_RECORD = 1 << 20;
    private static final long ADMIN_TIMEOUT_S = 60;
    private static final long END_OFFSETS_EVERY_NANOS = TimeUnit.SECONDS.toNanos(1);

    /**
     * Kafka's clients log their whole configuration at INFO each time one is created — a reader per
     * partition would flood the member's log. Quieted to warnings unless the logging configuration
     * says otherwise; held here so the setting is not collected with the logger.
     */
    private static final java.util.logging.Logger KAFKA_LOGGER = quietKafkaLogger();

    private final KafkaLogs source;
    private final String topic;
    private final EventSchema schema;
    private final int partitions;
    private final Map<String, Object> consumerConfig;
    private KafkaProducer<byte[], byte[]> producer;
    private Admin admin;
    /** End offsets as last listed (asynchronously), for {@link #recordsAfter}; -1 before the first. */
    private final AtomicLongArray endOffsets;
    private volatile long endOffsetsListedNanos;
    private volatile boolean listing;
    /** The first send that failed since the last {@link #flush()}, reported by it; null when none. */
    private final java.util.concurrent.atomic.AtomicReference<Exception> failedSend = new java.util.concurrent.atomic.AtomicReference<>();
    private final org.apache.kafka.clients.producer.Callback onSent = (metadata, error) -> {
        if (error != null) {
            failedSend.compareAndSet(null, error);
        }
    };

    private KafkaLog(final KafkaLogs source, final String topic, final EventSchema schema, final int partitions) {
        this.source = source;
        this.topic = topic;
        this.schema = schema;
        this.partitions = partitions;
        this.endOffsets = new AtomicLongArray(partitions);
        for (int p = 0; p < partitions; p++) {
            endOffsets.set(p, -1);
        }
        this.consumerConfig = Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, source.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.MAX_POLL_RECORDS_CONFIG, 2_000,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, ByteArrayDeserializer.class.getName());
    }

    /**
     * Opens the log named {@code logName}; with {@code createPartitions} > 0 its topic is created
     * with that many partitions when absent, else it must exist.
     *
     * @throws IllegalStateException       when the topic does not exist (and is not to be created) or Kafka does not answer within a minute
     * @throws IncompatibleSchemaException when the topic holds another schema or an incompatible version
     */
    static KafkaLog open(final KafkaLogs source, final EventSchema schema, final String logName, final int createPartitions) {
        final String topic = source.topic(logName);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, source.bootstrapServers()))) {
            ensureSchemaTopic(admin, source);
            Integer partitions = partitionsOf(admin, topic);
            if (partitions == null) {
                if (createPartitions <= 0) {
                    throw new IllegalStateException("no log '" + logName + "' in " + source.describe() + " (topic " + topic
                            + " does not exist): load its events first");
                }
                create(admin, new NewTopic(topic, createPartitions, source.replicationFactor()));
                partitions = awaitTopic(admin, topic);
            }
            checkSchema(source, topic, schema);
            return new KafkaLog(source, topic, schema, partitions);
        }
    }

    /** Whether the topic of the log named {@code logName} exists. */
    static boolean topicExists(final KafkaLogs source, final String logName) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, source.bootstrapServers()))) {
            return partitionsOf(admin, source.topic(logName)) != null;
        }
    }

    private static java.util.logging.Logger quietKafkaLogger() {
        final java.util.logging.Logger logger = java.util.logging.Logger.getLogger("org.apache.kafka");
        if (logger.getLevel() == null) {
            logger.setLevel(java.util.logging.Level.WARNING);
        }
        return logger;
    }

    @Override
    public String name() {
        return "kafka:" + topic;
    }

    @Override
    public EventSchema schema() {
        return schema;
    }

    @Override
    public int partitions() {
        return partitions;
    }

    @Override
    public LogReader reader(final int partition, final long lastReadIndex) {
        return new KafkaPartitionReader(consumerConfig, topic, partition, lastReadIndex, Math.max(256, schema.layout().length()),
                MAX_RECORD, new JsonValues(schema, partitions, partition));
    }

    /** From the end offsets listed at most a second ago (in the background): never blocks; 0 until the first listing. */
    @Override
    public long recordsAfter(final int partition, final long lastReadIndex) {
        if (System.nanoTime() - endOffsetsListedNanos > END_OFFSETS_EVERY_NANOS && !listing) {
            listEndOffsets();
        }
        final long end = endOffsets.get(partition);
        return end < 0 ? 0 : Math.max(0, end - (lastReadIndex + 1));
    }

    private synchronized void listEndOffsets() {
        if (listing) {
            return;
        }
        listing = true;
        final Map<TopicPartition, OffsetSpec> request = new HashMap<>();
        for (int p = 0; p < partitions; p++) {
            request.put(new TopicPartition(topic, p), OffsetSpec.latest());
        }
        admin().listOffsets(request).all().whenComplete((offsets, error) -> {
            if (offsets != null) {
                offsets.forEach((tp, info) -> endOffsets.set(tp.partition(), info.offset()));
            }
            endOffsetsListedNanos = System.nanoTime();
            listing = false;
        });
    }

    @Override
    public long tailIndex(final int partition) {
        if (System.nanoTime() - endOffsetsListedNanos > END_OFFSETS_EVERY_NANOS && !listing) {
            listEndOffsets();
        }
        final long end = endOffsets.get(partition);
        return end < 0 ? LogReader.START : end - 1;
    }

    @Override
    public long lastIndexNow(final int partition) {
        final TopicPartition tp = new TopicPartition(topic, partition);
        try {
            final long end = admin().listOffsets(Map.of(tp, OffsetSpec.latest()),
                            new org.apache.kafka.clients.admin.ListOffsetsOptions(org.apache.kafka.common.IsolationLevel.READ_COMMITTED))
                    .partitionResult(tp).get(ADMIN_TIMEOUT_S, TimeUnit.SECONDS).offset();
            return end - 1;
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking Kafka for the end of " + topic, e);
        } catch (final ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Kafka " + source.bootstrapServers() + " did not give the end of " + tp + " within "
                    + ADMIN_TIMEOUT_S + " s: " + (e.getCause() != null ? e.getCause() : e), e);
        }
    }

    @Override
    public long append(final SchemaRecord record) {
        producer().send(producerRecord(record), onSent);
        return -1;
    }

    /** {@code record} as a Kafka record of this topic, in its key's partition: what {@link #append} sends. */
    ProducerRecord<byte[], byte[]> producerRecord(final SchemaRecord record) {
        final byte[] value = new byte[record.length()];
        record.buffer().getBytes(record.offset(), value);
        return new ProducerRecord<>(topic, SchemaLog.partitionOf(record, partitions), null, value);
    }

    @Override
    public long appendHeartbeat(final int partition, final long eventTime) {
        producer().send(new ProducerRecord<>(topic, partition, null, control(SchemaLayout.KIND_HEARTBEAT, eventTime)), onSent);
        return -1;
    }

    @Override
    public void appendEndOfStream() {
        for (int p = 0; p < partitions; p++) {
            producer().send(new ProducerRecord<>(topic, p, null, control(SchemaLayout.KIND_END_OF_STREAM, Long.MAX_VALUE)), onSent);
        }
        flush();
    }

    private static byte[] control(final byte kind, final long time) {
        final UnsafeBuffer buffer = new UnsafeBuffer(new byte[SchemaLayout.CONTROL_LENGTH]);
        SchemaLog.fillControl(buffer, kind, time);
        return buffer.byteArray();
    }

    /**
     * Not recorded in Kafka: an emitted log's readers tell repeated events apart by writer and
     * count, which two emitting jobs would share — one emitting job per log is the operator's to
     * keep (the Chronicle log refuses a second).
     */
    @Override
    public synchronized void claimEmitter(final String jobName) {
        // Each job records its own key, emitter/<topic>/<job>; the earliest such record in the (single-partition,
        // totally ordered) schema topic names the emitter. Compaction keeps every key's record at its offset, so the
        // order, hence the owner, never changes — a claim without compare-and-set that two jobs cannot both win.
        final String prefix = "emitter/" + topic + "/";
        String owner = firstWithPrefix(source, prefix);
        if (owner == null) {
            recordInSchemaTopic(source, prefix + jobName, jobName);
            owner = firstWithPrefix(source, prefix);
        }
        if (!jobName.equals(owner)) {
            throw new IllegalStateException("job " + jobName + " cannot emit into topic " + topic + ": job " + owner
                    + " emits into it (one emitting job per log; give the schema another name)");
        }
    }

    /**
     * Blocks until every send so far is acknowledged or has failed (the producer retries until
     * its delivery timeout); a failure is reported here, not lost: a job's snapshot does not
     * complete, a publish is not acknowledged.
     */
    @Override
    public synchronized void flush() {
        if (producer != null) {
            producer.flush();
        }
        final Exception failed = failedSend.getAndSet(null);
        if (failed != null) {
            throw new IllegalStateException("Kafka " + source.bootstrapServers() + " did not take records sent to " + topic + ": "
                    + failed, failed);
        }
    }

    @Override
    public synchronized void close() {
        if (producer != null) {
            producer.close(Duration.ofSeconds(30));
            producer = null;
        }
        if (admin != null) {
            admin.close(Duration.ofSeconds(5));
            admin = null;
        }
    }

    private synchronized KafkaProducer<byte[], byte[]> producer() {
        if (producer == null) {
            producer = new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, source.bootstrapServers(),
                    ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true,
                    ProducerConfig.ACKS_CONFIG, "all",
                    ProducerConfig.LINGER_MS_CONFIG, 5,
                    ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName(),
                    ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, ByteArraySerializer.class.getName()));
        }
        return producer;
    }

    private synchronized Admin admin() {
        if (admin == null) {
            admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, source.bootstrapServers()));
        }
        return admin;
    }

    /** The topic's partition count, or null when it does not exist. */
    private static Integer partitionsOf(final Admin admin, final String topic) {
        try {
            final TopicDescription description = admin.describeTopics(List.of(topic)).allTopicNames()
                    .get(ADMIN_TIMEOUT_S, TimeUnit.SECONDS).get(topic);
            return description.partitions().size();
        } catch (final ExecutionException e) {
            if (e.getCause() instanceof UnknownTopicOrPartitionException) {
                return null;
            }
            throw unreachable(topic, e.getCause());
        } catch (final TimeoutException e) {
            throw unreachable(topic, e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unreachable(topic, e);
        }
    }

    /** The partition count of a topic just created, once the cluster's metadata shows it (within a minute). */
    private static int awaitTopic(final Admin admin, final String topic) {
        final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(ADMIN_TIMEOUT_S);
        while (true) {
            final Integer partitions = partitionsOf(admin, topic);
            if (partitions != null) {
                return partitions;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("topic " + topic + " was created but is not listed after " + ADMIN_TIMEOUT_S + " s");
            }
            try {
                Thread.sleep(100);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw unreachable(topic, e);
            }
        }
    }

    private static void create(final Admin admin, final NewTopic topic) {
        try {
            admin.createTopics(List.of(topic)).all().get(ADMIN_TIMEOUT_S, TimeUnit.SECONDS);
        } catch (final ExecutionException e) {
            if (!(e.getCause() instanceof TopicExistsException)) { // created meanwhile by another member: fine
                throw unreachable(topic.name(), e.getCause());
            }
        } catch (final TimeoutException e) {
            throw unreachable(topic.name(), e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unreachable(topic.name(), e);
        }
    }

    /** Creates {@code source}'s schema topic when it does not exist yet (a Kafka cluster StreamGrid has not used). */
    static void ensureSchemaTopic(final KafkaLogs source) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, source.bootstrapServers()))) {
            ensureSchemaTopic(admin, source);
        }
    }

    private static void ensureSchemaTopic(final Admin admin, final KafkaLogs source) {
        if (partitionsOf(admin, source.schemaTopic()) == null) {
            create(admin, new NewTopic(source.schemaTopic(), 1, source.replicationFactor())
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)));
            awaitTopic(admin, source.schemaTopic());
        }
    }

    private static IllegalStateException unreachable(final String topic, final Throwable cause) {
        return new IllegalStateException("Kafka did not answer about topic " + topic + " within " + ADMIN_TIMEOUT_S + " s: "
                + cause, cause);
    }

    /**
     * Checks {@code schema} against the one recorded for {@code topic}, recording it when there is
     * none or it is a newer compatible version (as {@link SchemaLog} does in its metadata file).
     */
    private static void checkSchema(final KafkaLogs source, final String topic, final EventSchema schema) {
        final String stored = storedSchema(source, topic);
        if (stored != null) {
            final Properties properties = new Properties();
            try {
                properties.load(new StringReader(stored));
            } catch (final IOException e) {
                throw new UncheckedIOException(e);
            }
            final EventSchema recorded = SchemaProperties.read(properties, "the schema of topic " + topic);
            if (!SchemaLog.checkAgainst(recorded, schema, "topic " + topic)) {
                return;
            }
        }
        final Properties properties = new Properties();
        SchemaProperties.write(schema, properties);
        final StringWriter text = new StringWriter();
        try {
            properties.store(text, null);
        } catch (final IOException e) {
            throw new UncheckedIOException(e);
        }
        recordInSchemaTopic(source, topic, text.toString());
    }

    /** Writes {@code key}: {@code value} to the schema topic, durably (acknowledged by every in-sync replica). */
    private static void recordInSchemaTopic(final KafkaLogs source, final String key, final String value) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, source.bootstrapServers(),
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()))) {
            producer.send(new ProducerRecord<>(source.schemaTopic(), 0, key, value)).get(ADMIN_TIMEOUT_S, TimeUnit.SECONDS);
        } catch (final ExecutionException | TimeoutException e) {
            throw unreachable(source.schemaTopic(), e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw unreachable(source.schemaTopic(), e);
        }
    }

    /** The newest schema recorded for {@code topic} (properties text), or null. */
    private static String storedSchema(final KafkaLogs source, final String topic) {
        return schemaTopicRecords(source).get(topic);
    }

    /**
     * A claim per publisher in the schema topic, key {@code publisher/<topic>/<publisher id>},
     * value the slot (compaction keeps it: each publisher has its own key). No compare-and-set:
     * callers allocate one at a time per log.
     */
    @Override
    public synchronized PublisherSlot publisherSlot(final String publisherId) {
        final String prefix = "publisher/" + topic + "/";
        final Map<String, String> records = schemaTopicRecords(source);
        final String known = records.get(prefix + publisherId);
        if (known != null) {
            return new PublisherSlot(Integer.parseInt(known), false);
        }
        final java.util.Set<Integer> taken = new java.util.HashSet<>();
        records.forEach((key, value) -> {
            if (key.startsWith(prefix)) {
                taken.add(Integer.parseInt(value));
            }
        });
        final int start = Math.floorMod(publisherId.hashCode(), PublishedSequence.SLOTS);
        for (int i = 0; i < PublishedSequence.SLOTS; i++) {
            final int slot = PublishedSequence.FIRST_SLOT + (start + i) % PublishedSequence.SLOTS;
            if (!taken.contains(slot)) {
                recordInSchemaTopic(source, prefix + publisherId, Integer.toString(slot));
                return new PublisherSlot(slot, true);
            }
        }
        throw new IllegalStateException("topic " + topic + " has no free publisher slot: " + PublishedSequence.SLOTS
                + " publishers have used it");
    }

    /** The value of the earliest record of the schema topic whose key starts with {@code prefix}, or null. */
    private static String firstWithPrefix(final KafkaLogs source, final String prefix) {
        final String[] first = new String[1];
        forEachSchemaTopicRecord(source, (key, value) -> {
            if (first[0] == null && key != null && key.startsWith(prefix)) {
                first[0] = value;
            }
        });
        return first[0];
    }

    /** Every key of the schema topic with its newest value. */
    static Map<String, String> schemaTopicRecords(final KafkaLogs source) {
        final Map<String, String> found = new HashMap<>();
        forEachSchemaTopicRecord(source, found::put);
        return found;
    }

    /** Hands every record of the schema topic, in log order, to {@code action}. */
    private static void forEachSchemaTopicRecord(final KafkaLogs source, final java.util.function.BiConsumer<String, String> action) {
        final TopicPartition only = new TopicPartition(source.schemaTopic(), 0);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, source.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName()))) {
            consumer.assign(List.of(only));
            consumer.seekToBeginning(List.of(only));
            final long end = consumer.endOffsets(List.of(only), Duration.ofSeconds(ADMIN_TIMEOUT_S)).get(only);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(ADMIN_TIMEOUT_S);
            while (consumer.position(only) < end) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("reading the schemas in topic " + source.schemaTopic() + " took over "
                            + ADMIN_TIMEOUT_S + " s");
                }
                for (final ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    action.accept(record.key(), record.value());
                }
            }
        }
    }
}
