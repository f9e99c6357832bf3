package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.KeyPartitions;
import io.streamgrid.jobs.schema.PublishedSequence;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.OffsetSpec;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;

import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
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
    /** Whether a job's claim to emit into this topic was seen (guarded by this). */
    private boolean claimSeen;
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
            KafkaTopics.ensureSchemaTopic(admin, source);
            Integer partitions = KafkaTopics.partitionsOf(admin, topic);
            if (partitions == null) {
                if (createPartitions <= 0) {
                    throw new IllegalStateException("no log '" + logName + "' in " + source.describe() + " (topic " + topic
                            + " does not exist): load its events first");
                }
                KafkaTopics.create(admin, new NewTopic(topic, createPartitions, source.replicationFactor()));
                partitions = KafkaTopics.awaitTopic(admin, topic);
            }
            SchemaTopic.checkSchema(source, topic, schema);
            return new KafkaLog(source, topic, schema, partitions);
        }
    }

    /** Whether the topic of the log named {@code logName} exists. */
    static boolean topicExists(final KafkaLogs source, final String logName) {
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, source.bootstrapServers()))) {
            return KafkaTopics.partitionsOf(admin, source.topic(logName)) != null;
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
                    .partitionResult(tp).get(KafkaTopics.ADMIN_TIMEOUT_S, TimeUnit.SECONDS).offset();
            return end - 1;
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while asking Kafka for the end of " + topic, e);
        } catch (final ExecutionException | TimeoutException e) {
            throw new IllegalStateException("Kafka " + source.bootstrapServers() + " did not give the end of " + tp + " within "
                    + KafkaTopics.ADMIN_TIMEOUT_S + " s: " + (e.getCause() != null ? e.getCause() : e), e);
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
        return new ProducerRecord<>(topic, KeyPartitions.partitionOf(record, partitions), null, value);
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

    @Override
    public void appendWriterClock(final int writer, final int writers, final long time) {
        for (int p = 0; p < partitions; p++) {
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[SchemaLayout.CONTROL_LENGTH]);
            SchemaLog.fillWriterClock(buffer, writer, writers, time);
            producer().send(new ProducerRecord<>(topic, p, null, buffer.byteArray()), onSent);
        }
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
        claimSeen = true;
        // Each job records its own key, emitter/<topic>/<job>; the earliest such record in the (single-partition,
        // totally ordered) schema topic names the emitter. Compaction keeps every key's record at its offset, so the
        // order, hence the owner, never changes — a claim without compare-and-set that two jobs cannot both win.
        final String prefix = "emitter/" + topic + "/";
        String owner = SchemaTopic.firstWithPrefix(source, prefix);
        if (owner == null) {
            SchemaTopic.recordInSchemaTopic(source, prefix + jobName, jobName);
            owner = SchemaTopic.firstWithPrefix(source, prefix);
        }
        if (!jobName.equals(owner)) {
            throw new IllegalStateException("job " + jobName + " cannot emit into topic " + topic + ": job " + owner
                    + " emits into it (one emitting job per log; give the schema another name)");
        }
    }

    /** Read from the schema topic; once a claim is seen it is remembered (a claim is never taken back). */
    @Override
    public synchronized boolean hasEmitter() {
        if (!claimSeen) {
            claimSeen = SchemaTopic.firstWithPrefix(source, "emitter/" + topic + "/") != null;
        }
        return claimSeen;
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

    /**
     * A claim per publisher in the schema topic, key {@code publisher/<topic>/<publisher id>},
     * value the slot (compaction keeps it: each publisher has its own key). No compare-and-set:
     * callers allocate one at a time per log.
     */
    @Override
    public synchronized PublisherSlot publisherSlot(final String publisherId) {
        final String prefix = "publisher/" + topic + "/";
        final Map<String, String> records = SchemaTopic.schemaTopicRecords(source);
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
                SchemaTopic.recordInSchemaTopic(source, prefix + publisherId, Integer.toString(slot));
                return new PublisherSlot(slot, true);
            }
        }
        throw new IllegalStateException("topic " + topic + " has no free publisher slot: " + PublishedSequence.SLOTS
                + " publishers have used it");
    }

}
