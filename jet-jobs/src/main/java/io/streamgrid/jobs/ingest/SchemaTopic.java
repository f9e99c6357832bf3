package io.streamgrid.jobs.ingest;

import io.streamgrid.jobs.schema.EventSchema;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
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

/**
 * The compacted schema topic ({@code <prefix>_schemas}, one partition, totally ordered) a Kafka log
 * keeps its facts in: each topic's schema (checked and recorded as a Chronicle log's metadata file
 * is), the emitter claims and the publisher slots — every record keyed so compaction keeps it.
 */
final class SchemaTopic {
    private SchemaTopic() {
    }

    /**
     * Checks {@code schema} against the one recorded for {@code topic}, recording it when there is
     * none or it is a newer compatible version (as {@link SchemaLog} does in its metadata file).
     */
    static void checkSchema(final KafkaLogs source, final String topic, final EventSchema schema) {
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
    static void recordInSchemaTopic(final KafkaLogs source, final String key, final String value) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, source.bootstrapServers(),
                ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, true, ProducerConfig.ACKS_CONFIG, "all",
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()))) {
            producer.send(new ProducerRecord<>(source.schemaTopic(), 0, key, value)).get(KafkaTopics.ADMIN_TIMEOUT_S, TimeUnit.SECONDS);
        } catch (final ExecutionException | TimeoutException e) {
            throw KafkaTopics.unreachable(source.schemaTopic(), e);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw KafkaTopics.unreachable(source.schemaTopic(), e);
        }
    }

    /** The newest schema recorded for {@code topic} (properties text), or null. */
    static String storedSchema(final KafkaLogs source, final String topic) {
        return schemaTopicRecords(source).get(topic);
    }

    /** The value of the earliest record of the schema topic whose key starts with {@code prefix}, or null. */
    static String firstWithPrefix(final KafkaLogs source, final String prefix) {
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
    static void forEachSchemaTopicRecord(final KafkaLogs source, final java.util.function.BiConsumer<String, String> action) {
        final TopicPartition only = new TopicPartition(source.schemaTopic(), 0);
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, source.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false,
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName()))) {
            consumer.assign(List.of(only));
            consumer.seekToBeginning(List.of(only));
            final long end = consumer.endOffsets(List.of(only), Duration.ofSeconds(KafkaTopics.ADMIN_TIMEOUT_S)).get(only);
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(KafkaTopics.ADMIN_TIMEOUT_S);
            while (consumer.position(only) < end) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("reading the schemas in topic " + source.schemaTopic() + " took over "
                            + KafkaTopics.ADMIN_TIMEOUT_S + " s");
                }
                for (final ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    action.accept(record.key(), record.value());
                }
            }
        }
    }
}
