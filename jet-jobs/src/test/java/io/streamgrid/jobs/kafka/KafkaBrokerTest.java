package io.streamgrid.jobs.kafka;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The development broker is a real Kafka: a topic created with partitions, a transaction committed
 * and one aborted, read back with read_committed — and after a SIGTERM stop and a start on the
 * same directory, the committed records are still there and the broker takes more.
 */
class KafkaBrokerTest {
    @TempDir
    Path dir;

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void when_theBrokerRestarts_then_committedRecordsSurviveAndAbortedOnesAreNeverRead() throws Exception {
        try (KafkaBroker broker = KafkaBroker.start(dir, System.out::println)) {
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers()))) {
                admin.createTopics(List.of(new NewTopic("events", 2, (short) 1))).all().get(60, TimeUnit.SECONDS);
            }
            produce(broker, "committed-", 100, true);
            produce(broker, "aborted-", 50, false);
            assertThat(readCommitted(broker)).hasSize(100).allSatisfy(value -> assertThat(value).startsWith("committed-"));

            broker.stop();
            broker.start();
            produce(broker, "after-restart-", 10, true);
            final List<String> values = readCommitted(broker);
            System.out.println(values.size() + " committed records read after the restart (110 expected), aborted ones: "
                    + values.stream().filter(v -> v.startsWith("aborted-")).count());
            assertThat(values).hasSize(110).noneMatch(value -> value.startsWith("aborted-"));
        }
    }

    private static void produce(final KafkaBroker broker, final String prefix, final int count, final boolean commit) {
        try (KafkaProducer<String, String> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ProducerConfig.TRANSACTIONAL_ID_CONFIG, "test-" + prefix,
                ProducerConfig.KEY_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName(),
                ProducerConfig.VALUE_SERIALIZER_CLASS_CONFIG, StringSerializer.class.getName()))) {
            producer.initTransactions();
            producer.beginTransaction();
            for (int i = 0; i < count; i++) {
                producer.send(new ProducerRecord<>("events", i % 2, null, prefix + i));
            }
            if (commit) {
                producer.commitTransaction();
            } else {
                producer.flush();
                producer.abortTransaction();
            }
        }
    }

    private static List<String> readCommitted(final KafkaBroker broker) {
        try (KafkaConsumer<String, String> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, broker.bootstrapServers(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.KEY_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName(),
                ConsumerConfig.VALUE_DESERIALIZER_CLASS_CONFIG, StringDeserializer.class.getName()))) {
            final Set<TopicPartition> partitions = Set.of(new TopicPartition("events", 0), new TopicPartition("events", 1));
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            final Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
            final List<String> values = new ArrayList<>();
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p)) && System.nanoTime() < deadline) {
                for (final ConsumerRecord<String, String> record : consumer.poll(Duration.ofMillis(200))) {
                    values.add(record.value());
                }
            }
            return values;
        }
    }
}
