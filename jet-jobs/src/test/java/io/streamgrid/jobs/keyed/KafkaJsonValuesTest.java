package io.streamgrid.jobs.keyed;

import com.hazelcast.jet.Job;
import io.streamgrid.jobs.EmbeddedMemberTest;
import io.streamgrid.jobs.JobTestSupport;
import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.ingest.KafkaLogs;
import io.streamgrid.jobs.kafka.KafkaBroker;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.pipeline.RejectedRecord;
import io.streamgrid.jobs.pipeline.impl.KeyedDag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A Node.js service publishes into a StreamGrid Kafka log with its ordinary Kafka client
 * ({@code kafkajs} from the npm registry, {@code src/test/node/kafka-json}): events as JSON values,
 * each in its key's partition by StreamGrid's partitioner, then four bad values. A keyed job reading
 * the topic must count every good event once per account, equal to the oracle (the same formula
 * here), and reject each bad value into its rejected map with a reason that names what is wrong.
 */
class KafkaJsonValuesTest extends EmbeddedMemberTest {
    private static final int PARTITIONS = 4;
    private static final int ACCOUNTS = 300;
    private static final int EVENTS = 12_000;

    @Test
    @Timeout(value = 5, unit = TimeUnit.MINUTES)
    void when_aNodeServicePublishesJsonValues_then_aJobCountsEachOnceAndRejectsTheBadOnesNamingWhy() throws Exception {
        final Path node = installNodeClient();
        try (KafkaBroker broker = KafkaBroker.start(dir.resolve("kafka"), System.out::println)) {
            final KafkaLogs logs = new KafkaLogs(broker.bootstrapServers(), "sg.", (short) 1);
            try (EventLog doubled = logs.openOrCreate(DoublingJobs.DOUBLED, DoublingJobs.DOUBLED.name(), PARTITIONS)) {
                run(node, List.of("node", "produce.js", broker.bootstrapServers(), "sg.doubled", Integer.toString(PARTITIONS),
                        Integer.toString(EVENTS), Long.toString(DoublingJobs.START)));
            }
            startMember();
            final Job totals = member.getJet().newJob(KeyedDag.of(DoublingJobs.totals(), logs, 1, null, null),
                    JobOptions.of(dir).jobConfig("doubled-totals"));
            final long[][] oracle = new long[ACCOUNTS][2];
            for (int i = 0; i < EVENTS; i++) {
                oracle[i % ACCOUNTS][0]++;
                oracle[i % ACCOUNTS][1] += 1 + (i * 7919L) % 10_000;
            }
            final Map<Long, String> expected = new HashMap<>();
            for (int account = 0; account < ACCOUNTS; account++) {
                expected.put((long) account, oracle[account][0] + "/" + oracle[account][1]);
            }
            JobTestSupport.awaitEqual(expected, () -> Map.copyOf(member.<Long, String>getMap(DoublingJobs.TOTALS)), Duration.ofMinutes(2),
                    totals);
            System.out.println(EVENTS + " expected, " + EVENTS + " found, 0 lost, 0 duplicated (JSON values from kafkajs)");

            final Map<String, RejectedRecord> rejected = member.getMap(DoublingJobs.totals().rejectedMap());
            await().atMost(Duration.ofSeconds(30)).until(() -> rejected.size() >= 4);
            final List<String> reasons = rejected.values().stream().map(RejectedRecord::reason).sorted().toList();
            reasons.forEach(reason -> System.out.println("rejected: " + reason));
            assertThat(reasons).hasSize(4);
            assertThat(reasons).anySatisfy(r -> assertThat(r).contains("'account' must be a whole number", "x"));
            assertThat(reasons).anySatisfy(r -> assertThat(r).contains("missing field 'ts'"));
            assertThat(reasons).anySatisfy(r -> assertThat(r).contains("but its key belongs in partition"));
            assertThat(reasons).anySatisfy(r -> assertThat(r).startsWith("JSON value: "));
            totals.cancel();
        }
    }

    /** A copy of the Node.js client's folder with its dependencies installed by npm from the lock file. */
    private Path installNodeClient() throws Exception {
        final Path source = Path.of("src/test/node/kafka-json").toAbsolutePath();
        final Path copy = Files.createDirectories(dir.resolve("node"));
        try (Stream<Path> files = Files.list(source)) {
            for (final Path file : files.filter(Files::isRegularFile).toList()) {
                Files.copy(file, copy.resolve(file.getFileName()));
            }
        }
        run(copy, List.of("npm", "ci", "--no-audit", "--no-fund"));
        return copy;
    }

    private static void run(final Path workDir, final List<String> command) throws IOException, InterruptedException {
        final Path log = workDir.resolve(command.get(0) + ".log");
        final Process process = new ProcessBuilder(new ArrayList<>(command)).directory(workDir.toFile()).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        try {
            assertThat(process.waitFor(3, TimeUnit.MINUTES)).as("%s finishes", command).isTrue();
        } finally {
            process.destroyForcibly();
        }
        final String output = Files.readString(log);
        System.out.println(String.join(" ", command.subList(0, 2)) + ": " + output.strip().lines().reduce((a, b) -> b).orElse(""));
        assertThat(process.exitValue()).as("%s failed:%n%s", command, output).isZero();
    }
}
