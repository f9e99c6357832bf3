package io.streamgrid.cli;

import io.streamgrid.jobs.schema.KeyPartitions;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cluster.TestWorkDir;
import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.event.ClickAction;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.EventGenerator;
import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.ingest.GeneratorSpec;
import io.streamgrid.jobs.ingest.KafkaLogs;
import io.streamgrid.jobs.ingest.LogReader;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.kafka.KafkaBroker;
import io.streamgrid.jobs.usecase.UserClicks;
import io.streamgrid.jobs.usecase.UserClicksHourlyJob;
import io.streamgrid.jobs.window.WindowOracle;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * With {@code ingest.kind: kafka} the CLI writes and a built-in job it submits reads the schema's
 * Kafka topic on member processes: {@code ingest generate} produces 30,000 click events (3 % late)
 * to {@code sg.click} on a real broker; {@code user-clicks-hourly} (10-minute windows sliding by a
 * minute) must produce exactly the oracle's windows — the same seeded events generated in this
 * process; {@code job replay} into its own maps equals it too, its progress followed until it has
 * caught up. {@code ingest end} ends the topic.
 */
class KafkaIngestTest {
    private static final long SIZE = 600_000;
    private static final long SLIDE = 60_000;
    private static final long DISORDER = 5_000;
    private static final long LATENESS = 60_000;

    @Test
    @Timeout(value = 6, unit = TimeUnit.MINUTES)
    void when_theLogsAreKafkaTopics_then_aJobSubmittedByTheCliReadsThemAndItsWindowsEqualTheOracle(final TestInfo test)
            throws Exception {
        final Path workDir = TestWorkDir.of(test);
        try (KafkaBroker broker = KafkaBroker.start(workDir.resolve("kafka"), System.out::println)) {
            final KafkaLogs logs = new KafkaLogs(broker.bootstrapServers(), "sg.", (short) 1);
            final GeneratorSpec spec = GeneratorSpec.of(EventType.CLICK, 7, 30_000, 100).withRate(20)
                    .withZipf(1.0).withDisorder(DISORDER, 0.03, 240_000).withHotKeys(0, 60_000); // as the CLI builds it
            final int action = EventType.CLICK.schema().layout().indexOf("action");
            final List<WindowOracle.Event> events = new ArrayList<>();
            new EventGenerator(spec).generate(record -> events.add(new WindowOracle.Event(KeyPartitions.partitionOf(record.keyLong(), 3),
                    record.keyLong(), record.eventTime(), record.sequence(), record.getEnumOrdinal(action))));
            final Map<String, List<Long>> expected = new HashMap<>();
            WindowOracle.sliding(events, SIZE, SLIDE, DISORDER, LATENESS).windows().forEach((id, accepted) -> expected.put(
                    UserClicksHourlyJob.windowKey(id.key(), id.start()), List.of(count(accepted, ClickAction.CLICK),
                            count(accepted, ClickAction.VIEW), count(accepted, ClickAction.PURCHASE))));

            final String cluster = "kafka-" + System.nanoTime();
            final Path config = Files.writeString(workDir.resolve("kafka.yaml"), String.join("\n",
                    "cluster-name: " + cluster,
                    "ingest:",
                    "  kind: kafka",
                    "  dir: " + workDir.resolve("ingest"),
                    "  partitions: 3",
                    "  kafka:",
                    "    bootstrap-servers: " + broker.bootstrapServers(),
                    "    topic-prefix: sg.",
                    "jobs:",
                    "  snapshot-interval-ms: 200",
                    "  user-clicks-hourly:",
                    "    window-ms: " + SIZE,
                    "    slide-ms: " + SLIDE,
                    "    allowed-disorder-ms: " + DISORDER,
                    "    allowed-lateness-ms: " + LATENESS,
                    ""));
            final CliRun generate = CliRun.of("ingest", "generate", "--schema", "click", "--events", "30000", "--keys", "100",
                    "--seed", "7", "--rate", "20", "--zipf", "1.0", "--disorder-ms", Long.toString(DISORDER), "--late-fraction", "0.03",
                    "--max-lateness-ms", "240000", "--end", "--config", config.toString());
            assertThat(generate.code()).as(generate.err()).isZero();
            assertThat(generate.out()).contains("appended 30000 click events to topic sg.click, then the end of the stream");
            // The topic's end read back (transaction markers and all): more events after its end would be late, and are refused.
            final CliRun again = CliRun.of("ingest", "generate", "--schema", "click", "--events", "100", "--config", config.toString());
            assertThat(again.code()).as(again.out()).isEqualTo(2);
            assertThat(again.err()).contains("was ended", "nothing was appended");

            try (LocalCluster members = LocalCluster.builder().members(2).clusterName(cluster).configFile(config).workDir(workDir)
                    .start()) {
                final String member = "--member=" + members.members().get(0).address();
                final CliRun submitted = CliRun.of("job", "submit", UserClicksHourlyJob.NAME, "--config", config.toString(), member);
                assertThat(submitted.code()).as(submitted.err()).isZero();
                assertThat(submitted.out()).contains("topic sg.click of Kafka " + broker.bootstrapServers());

                final HazelcastInstance client = members.newClient();
                final Job job = client.getJet().getJob(UserClicksHourlyJob.NAME);
                JobTestSupport.awaitEqual(expected, () -> client.<String, UserClicks>getMap("state." + UserClicksHourlyJob.NAME)
                        .entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> List.of(e.getValue().clicks(),
                                e.getValue().views(), e.getValue().purchases()))), Duration.ofMinutes(3), job);
                System.out.println(expected.size() + " windows expected, " + expected.size() + " found, 0 lost, 0 wrong over Kafka ("
                        + events.size() + " events)");
                final CliRun replay = CliRun.of("job", "replay", UserClicksHourlyJob.NAME, "--into", "r1", "--config", config.toString(),
                        member);
                assertThat(replay.code()).as(replay.err()).isZero();
                assertThat(replay.out()).as("the replay's progress is followed over Kafka too")
                        .contains("following the replay over").contains("caught up with its logs");
                System.out.println("replay: " + replay.out().lines().filter(l -> l.contains("caught up")).toList());
                JobTestSupport.awaitEqual(expected, () -> client.<String, UserClicks>getMap("state." + UserClicksHourlyJob.NAME + ".r1")
                        .entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey, e -> List.of(e.getValue().clicks(),
                                e.getValue().views(), e.getValue().purchases()))), Duration.ofMinutes(3),
                        client.getJet().getJob(UserClicksHourlyJob.NAME + ".r1"));
                client.getJet().getJob(UserClicksHourlyJob.NAME + ".r1").cancel();
                // Without --schema, as on Chronicle: every built-in type's log that exists — only click's here, none created.
                final CliRun ended = CliRun.of("ingest", "end", "--config", config.toString());
                assertThat(ended.code()).as(ended.err()).isZero();
                assertThat(ended.out()).contains("appended the end of the stream to every partition of the logs of [CLICK] in Kafka");
                assertThat(logs.exists(EventType.REQUEST.schema().name())).as("a topic for requests, which were never loaded").isFalse();
                try (EventLog clicks = logs.open(EventType.CLICK.schema(), EventType.CLICK.schema().name())) {
                    for (int p = 0; p < clicks.partitions(); p++) {
                        assertThat(lastRecordKind(clicks, p)).as("partition %d ends with the end of the stream", p)
                                .isEqualTo(SchemaLayout.KIND_END_OF_STREAM);
                    }
                }
                job.cancel();
            }
        }
    }

    private static long count(final List<WindowOracle.Event> events, final ClickAction action) {
        return events.stream().filter(e -> (int) e.payload() == action.ordinal()).count();
    }

    /** The kind byte of {@code partition}'s last record, read through the log. */
    private static byte lastRecordKind(final EventLog log, final int partition) {
        final long end = log.lastIndexNow(partition);
        try (LogReader reader = log.reader(partition, end - 1)) {
            final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (System.nanoTime() < deadline) {
                if (reader.next() >= 0) {
                    return reader.buffer().getByte(0);
                }
            }
        }
        throw new AssertionError("partition " + partition + "'s last record not read within 30 s");
    }
}
