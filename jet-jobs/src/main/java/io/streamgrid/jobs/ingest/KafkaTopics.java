package io.streamgrid.jobs.ingest;

import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.errors.TopicExistsException;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Creating and describing the Kafka topics of logs and the schema topic, with one time limit for every answer. */
final class KafkaTopics {
    /** How long an answer of Kafka's may take before the operation fails, naming the topic. */
    static final long ADMIN_TIMEOUT_S = 60;

    private KafkaTopics() {
    }

    /** The topic's partition count, or null when it does not exist. */
    static Integer partitionsOf(final Admin admin, final String topic) {
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
    static int awaitTopic(final Admin admin, final String topic) {
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

    static void create(final Admin admin, final NewTopic topic) {
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

    static void ensureSchemaTopic(final Admin admin, final KafkaLogs source) {
        if (partitionsOf(admin, source.schemaTopic()) == null) {
            create(admin, new NewTopic(source.schemaTopic(), 1, source.replicationFactor())
                    .configs(Map.of(TopicConfig.CLEANUP_POLICY_CONFIG, TopicConfig.CLEANUP_POLICY_COMPACT)));
            awaitTopic(admin, source.schemaTopic());
        }
    }

    static IllegalStateException unreachable(final String topic, final Throwable cause) {
        return new IllegalStateException("Kafka did not answer about topic " + topic + " within " + ADMIN_TIMEOUT_S + " s: "
                + cause, cause);
    }
}
