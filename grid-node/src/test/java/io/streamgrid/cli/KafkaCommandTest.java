package io.streamgrid.cli;

import io.streamgrid.cluster.JvmCommands;
import io.streamgrid.cluster.TestWorkDir;
import io.streamgrid.jobs.event.EventType;
import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.ingest.KafkaLogs;
import io.streamgrid.jobs.ingest.LogReader;
import io.streamgrid.jobs.kafka.KafkaBroker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@code streamgrid kafka} in its own process: it prints the bootstrap servers once the broker
 * takes clients (a log is created and its end stored there), and SIGTERM — Ctrl-C — stops the
 * broker's JVM with it, by PID.
 */
class KafkaCommandTest {
    private static final Pattern READY = Pattern.compile("Kafka ready \\(pid (\\d+)\\): bootstrap servers (\\S+);");

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void when_kafkaCommandRuns_then_itPrintsAWorkingBrokerAndStopsItOnCtrlC(final TestInfo test) throws Exception {
        final Path workDir = Files.createDirectories(TestWorkDir.of(test).toAbsolutePath());
        final Path log = workDir.resolve("kafka-command.log");
        final List<String> command = JvmCommands.cliCommand(JvmCommands.writeJvmOptions(workDir), "256m",
                System.getProperty("java.class.path"), "-D" + KafkaBroker.LIB_PROPERTY + "=" + KafkaBroker.libDir(),
                List.of("kafka", "--dir", workDir.resolve("kafka").toString()));
        final Process process = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        try {
            final Matcher[] ready = new Matcher[1];
            await().atMost(Duration.ofMinutes(2)).pollInterval(Duration.ofMillis(200)).until(() -> {
                assertThat(process.isAlive()).as("the command runs; see " + log).isTrue();
                final Matcher matcher = READY.matcher(Files.readString(log));
                ready[0] = matcher.find() ? matcher : null;
                return ready[0] != null;
            });
            final long brokerPid = Long.parseLong(ready[0].group(1));
            final String bootstrap = ready[0].group(2);
            System.out.println("streamgrid kafka: broker pid " + brokerPid + " at " + bootstrap);
            try (EventLog clicks = new KafkaLogs(bootstrap, "sg.", (short) 1).openOrCreate(EventType.CLICK.schema(), "click", 2)) {
                assertThat(clicks.lastIndexNow(0)).isEqualTo(LogReader.START);
            }
            process.destroy(); // SIGTERM, as Ctrl-C
            assertThat(process.waitFor(90, TimeUnit.SECONDS)).as("the command stops on SIGTERM").isTrue();
            await().atMost(Duration.ofSeconds(30)).until(() -> ProcessHandle.of(brokerPid).map(h -> !h.isAlive()).orElse(true));
        } finally {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
    }
}
