package io.streamgrid.client;

import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cluster.JvmCommands;
import io.streamgrid.cluster.MemberProcess;
import io.streamgrid.cluster.TestWorkDir;
import io.streamgrid.jobs.ingest.PublishedRecords;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.ingest.KafkaLogs;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.kafka.KafkaBroker;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The publish API against member processes: an application in its own JVM publishes click events
 * while members are killed with SIGKILL, is itself killed with SIGKILL mid-stream and restarted;
 * the log, read afterwards by this test, must hold every sequence exactly once — over Chronicle
 * (one host) and over a real Kafka broker.
 */
class PublishTest {
    private static final long EVENTS = 60_000;

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void when_membersAndThePublisherAreKilledMidStream_then_theChronicleLogHoldsEveryEventOnce(final TestInfo test) throws Exception {
        final Path workDir = Files.createDirectories(TestWorkDir.of(test));
        final String cluster = "publish-" + System.nanoTime();
        final Path config = Files.writeString(workDir.resolve("member.yaml"), String.join("\n",
                "cluster-name: " + cluster, "ingest:", "  dir: " + workDir.resolve("ingest"), "  partitions: 4", ""));
        try (LocalCluster members = LocalCluster.builder().members(3).clusterName(cluster).configFile(config).workDir(workDir).start()) {
            killWhilePublishing(members, workDir, () -> { });
            try (SchemaLog log = SchemaLog.openExisting(SchemaLog.directoryOf(workDir.resolve("ingest"), "click"),
                    EventType.CLICK.schema())) {
                checkOnce(log);
            }
        }
    }

    /** Over Kafka the publisher produces itself (decision record 0009): the member kills touch only its opens and ledger. */
    @Tag("soak") // 50 s; the default run's 30 minutes: KafkaPublisherTest (members and the broker killed under a publisher) and
    // LogPublisherTest (a batch that reached one partition, retried) cover it in part, MultiHostPublishTest (soak) across hosts
    @Test
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void when_membersTheBrokerAndThePublisherAreKilledMidStream_then_theKafkaTopicHoldsEveryEventOnce(final TestInfo test)
            throws Exception {
        final Path workDir = Files.createDirectories(TestWorkDir.of(test));
        try (KafkaBroker broker = KafkaBroker.start(workDir.resolve("kafka"), System.out::println)) {
            final String cluster = "publish-kafka-" + System.nanoTime();
            final Path config = Files.writeString(workDir.resolve("member.yaml"), String.join("\n",
                    "cluster-name: " + cluster, "ingest:", "  kind: kafka", "  dir: " + workDir.resolve("ingest"), "  partitions: 4",
                    "  kafka:", "    bootstrap-servers: " + broker.bootstrapServers(), "    topic-prefix: sg.", ""));
            try (LocalCluster members = LocalCluster.builder().members(3).clusterName(cluster).configFile(config).workDir(workDir)
                    .start()) {
                killWhilePublishing(members, workDir, () -> {
                    broker.kill();
                    System.out.println("killed the Kafka broker (SIGKILL) while publishing; starting it again in 3 s");
                    sleep(3_000);
                    broker.start();
                });
                try (EventLog log = new KafkaLogs(broker.bootstrapServers(), "sg.", (short) 1).open(EventType.CLICK.schema(), "click")) {
                    checkOnce(log);
                }
            }
        }
    }

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void when_theSchemaIsUnknownOrEventsInvalidOrTheMembersGone_then_eachGetsAClearErrorWithinTheTimeout(final TestInfo test)
            throws Exception {
        final Path workDir = Files.createDirectories(TestWorkDir.of(test));
        final String cluster = "publish-errors-" + System.nanoTime();
        final Path config = Files.writeString(workDir.resolve("member.yaml"), String.join("\n",
                "cluster-name: " + cluster, "ingest:", "  dir: " + workDir.resolve("ingest"), "  partitions: 2", ""));
        try (LocalCluster members = LocalCluster.builder().members(1).clusterName(cluster).configFile(config).workDir(workDir).start();
             StreamGridClient client = StreamGridClient.connect(members.clientSettings())) {
            assertThatThrownBy(() -> client.publisher("clicks", "app")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no schema 'clicks'").hasMessageContaining("click");
            final Publisher publisher = client.publisher("click", "app", PublisherOptions.defaults()
                    .withDeliveryTimeout(Duration.ofSeconds(3)));
            assertThat(publisher.durableSequence()).isZero();
            final PublishResult good = publisher.publish(PublishingApp.event(1)).get();
            assertThat(good).isEqualTo(new PublishResult(1, false));
            assertRejected(publisher, Event.builder().set("user", 1).set("item", 2).set("category", 3).set("action", "click").build(),
                    "missing field 'ts'");
            assertRejected(publisher, Event.of(Map.of("user", "bob", "ts", 1L, "item", 2, "category", 3, "action", "click")),
                    "'user' must be a whole number, found bob");
            assertRejected(publisher, Event.json("{\"user\":1,\"ts\":1,\"item\":2,\"category\":3,\"action\":\"buy\"}"),
                    "action", "buy");
            assertThat(publisher.publish(PublishingApp.event(5)).get()).isEqualTo(new PublishResult(5, false)); // 2..4 rejected
            try (SchemaLog log = SchemaLog.openExisting(SchemaLog.directoryOf(workDir.resolve("ingest"), "click"),
                    EventType.CLICK.schema())) {
                assertThat(PublishedRecords.counts(log, log.publisherSlot("app").slot())).containsOnlyKeys(1L, 5L);
            }

            members.kill(members.members().get(0));
            final long start = System.nanoTime();
            assertThatThrownBy(() -> publisher.publish(PublishingApp.event(7)).get()).cause().isInstanceOf(PublishException.class)
                    .hasMessageContaining("not acknowledged within 3000 ms")
                    .satisfies(e -> assertThat(((PublishException) e).reason()).isEqualTo(PublishException.Reason.NOT_ACKNOWLEDGED));
            final long tookMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            System.out.println("with no member, the publish failed as not acknowledged after " + tookMs + " ms (timeout 3000 ms)");
            assertThat(tookMs).isLessThan(10_000);
        }
    }

    static void assertRejected(final Publisher publisher, final Event event, final String... fragments) throws InterruptedException {
        try {
            publisher.publish(event).get();
            throw new AssertionError("accepted: " + event);
        } catch (final ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(PublishException.class);
            assertThat(((PublishException) e.getCause()).reason()).isEqualTo(PublishException.Reason.REJECTED);
            assertThat(e.getCause().getMessage()).contains(fragments);
        }
    }

    /**
     * Runs the publishing application, kills a member at a third of the stream, runs
     * {@code alsoKill} at two fifths and kills the application itself (SIGKILL) at half; restarts it,
     * which kills a second member at three quarters and finishes. Every sequence acknowledged before
     * the application died must be durable.
     */
    private static void killWhilePublishing(final LocalCluster members, final Path workDir, final Runnable alsoKill) throws Exception {
        final Process first = startApp(members, workDir.resolve("app-1.log"));
        PublishingApp.awaitAcknowledged(first, workDir.resolve("app-1.log"), EVENTS / 3);
        final MemberProcess killed = members.members().get(0);
        System.out.println("killing member " + killed.address() + " (SIGKILL) while publishing");
        members.kill(killed);
        PublishingApp.awaitAcknowledged(first, workDir.resolve("app-1.log"), EVENTS * 2 / 5);
        alsoKill.run();
        final long acknowledgedBeforeDeath = PublishingApp.awaitAcknowledged(first, workDir.resolve("app-1.log"), EVENTS / 2);
        first.destroyForcibly().waitFor();
        System.out.println("killed the publishing application (SIGKILL) after sequence " + acknowledgedBeforeDeath + " was acknowledged");

        final Process second = startApp(members, workDir.resolve("app-2.log"));
        PublishingApp.awaitAcknowledged(second, workDir.resolve("app-2.log"), EVENTS * 3 / 4);
        final MemberProcess alsoKilled = members.members().get(0);
        System.out.println("killing member " + alsoKilled.address() + " (SIGKILL) while publishing");
        members.kill(alsoKilled);
        assertThat(second.waitFor(3, TimeUnit.MINUTES)).as("the second run finishes").isTrue();
        final String output = Files.readString(workDir.resolve("app-2.log"));
        System.out.println("second run: " + output.lines().filter(l -> l.startsWith("durable") || l.startsWith("done")).toList());
        assertThat(second.exitValue()).as(output).isZero();
        final long durable = Long.parseLong(output.lines().filter(l -> l.startsWith("durable ")).findFirst().orElseThrow().substring(8));
        assertThat(durable).as("every event acknowledged before the application died is durable").isGreaterThanOrEqualTo(acknowledgedBeforeDeath);
    }

    private static void sleep(final long millis) {
        try {
            Thread.sleep(millis);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private static Process startApp(final LocalCluster members, final Path log) throws IOException {
        final List<String> addresses = new ArrayList<>();
        members.members().forEach(m -> addresses.add(m.address()));
        final List<String> command = JvmCommands.javaCommand(JvmCommands.writeJvmOptions(log.getParent()), "256m",
                System.getProperty("java.class.path"), null, PublishingApp.class.getName(),
                List.of(members.clusterName(), String.join(",", addresses), "click", "gateway-1", Long.toString(EVENTS), "10000"));
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static void checkOnce(final EventLog log) {
        final PublishedRecords.Tally tally = PublishedRecords.tally(log, "gateway-1", EVENTS);
        System.out.println(tally + " (" + log.name() + ")");
        assertThat(tally.lost()).isZero();
        assertThat(tally.duplicated()).isZero();
        assertThat(tally.found()).isEqualTo(EVENTS);
    }
}
