package io.streamgrid.client;

import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cluster.TestWorkDir;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.ingest.KafkaLogs;
import io.streamgrid.jobs.ingest.PublishedRecords;
import io.streamgrid.jobs.kafka.KafkaBroker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A publisher of a Kafka-mode cluster produces to the schema's topic itself (decision record 0009):
 * it validates and numbers events on the application's side as the members would, needs no member
 * once open, and reports a broker it cannot reach within its delivery timeout. Member, broker and
 * publisher kills are in {@link PublishTest}.
 */
class KafkaPublisherTest {
    @Test
    @Timeout(value = 4, unit = TimeUnit.MINUTES)
    void when_aPublisherProducesToKafkaItself_then_badEventsFailAloneNoMemberIsOnThePathAndADeadBrokerIsReported(final TestInfo test)
            throws Exception {
        final Path workDir = Files.createDirectories(TestWorkDir.of(test));
        try (KafkaBroker broker = KafkaBroker.start(workDir.resolve("kafka"), System.out::println)) {
            final String cluster = "kafka-publisher-" + System.nanoTime();
            final Path config = Files.writeString(workDir.resolve("member.yaml"), String.join("\n",
                    "cluster-name: " + cluster, "ingest:", "  kind: kafka", "  partitions: 2",
                    "  kafka:", "    bootstrap-servers: " + broker.bootstrapServers(), "    topic-prefix: sg.", ""));
            try (LocalCluster members = LocalCluster.builder().members(1).clusterName(cluster).configFile(config).workDir(workDir).start();
                 StreamGridClient client = StreamGridClient.connect(members.clientSettings());
                 EventLog topic = new KafkaLogs(broker.bootstrapServers(), "sg.", (short) 1).openOrCreate(EventType.CLICK.schema(), "click", 2)) {
                final Publisher publisher = client.publisher("click", "app", PublisherOptions.defaults()
                        .withDeliveryTimeout(Duration.ofSeconds(3)));
                assertThat(publisher.durableSequence()).isZero();
                assertThat(publisher.publish(PublishingApp.event(1)).get()).isEqualTo(new PublishResult(1, false));
                PublishTest.assertRejected(publisher, Event.builder().set("user", 1).set("item", 2).set("category", 3)
                        .set("action", "click").build(), "missing field 'ts'");
                PublishTest.assertRejected(publisher, Event.of(Map.of("user", "bob", "ts", 1L, "item", 2, "category", 3, "action", "click")),
                        "'user' must be a whole number, found bob");
                PublishTest.assertRejected(publisher, Event.json("{\"user\":1,\"ts\":1,\"item\":2,\"category\":3,\"action\":\"buy\"}"),
                        "action", "buy");
                assertThat(publisher.publish(PublishingApp.event(5)).get()).isEqualTo(new PublishResult(5, false)); // 2..4 rejected
                final int slot = topic.publisherSlot("app").slot();
                assertThat(PublishedRecords.counts(topic, slot)).as("only the valid events are in the topic").containsOnlyKeys(1L, 5L);

                members.kill(members.members().get(0));
                System.out.println("killed the only member (SIGKILL); publishing goes on");
                assertThat(publisher.publish(PublishingApp.event(6)).get(1, TimeUnit.MINUTES)).isEqualTo(new PublishResult(6, false));
                assertThat(publisher.publish(7, PublishingApp.event(7)).get(1, TimeUnit.MINUTES)).isEqualTo(new PublishResult(7, false));
                assertThat(PublishedRecords.counts(topic, slot)).as("with no member at all").containsOnlyKeys(1L, 5L, 6L, 7L);

                broker.kill();
                System.out.println("killed the broker (SIGKILL)");
                final long start = System.nanoTime();
                assertThatThrownBy(() -> publisher.publish(PublishingApp.event(8)).get(1, TimeUnit.MINUTES))
                        .isInstanceOf(ExecutionException.class).cause().isInstanceOf(PublishException.class)
                        .hasMessageContaining("not acknowledged by Kafka " + broker.bootstrapServers() + " within 3000 ms")
                        .satisfies(e -> assertThat(((PublishException) e).reason()).isEqualTo(PublishException.Reason.NOT_ACKNOWLEDGED));
                final long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
                System.out.println("with the broker dead, the publish failed as not acknowledged after " + tookMs + " ms (timeout 3000 ms)");
                assertThat(tookMs).isLessThan(10_000);
                final long closing = System.nanoTime();
                publisher.close();
                assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - closing)).as("close with the broker and members gone")
                        .isLessThan(30);
            }
        }
    }
}
