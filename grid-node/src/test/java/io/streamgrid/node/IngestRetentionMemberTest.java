package io.streamgrid.node;

import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cluster.TestWorkDir;
import io.streamgrid.jobs.ingest.LogRetentionTest;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.concurrent.UnsafeBuffer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A member applies {@code ingest.retention} by itself: a log with a day five days old and today's,
 * retention of two days checked every second — the old day's files go, today's stay, and the
 * member's log says what it deleted. (What jobs hold back: {@code LogRetentionTest}.)
 */
class IngestRetentionMemberTest {

    @Test
    @Timeout(value = 3, unit = TimeUnit.MINUTES)
    void when_retentionIsConfigured_then_theMemberDeletesDaysOlderThanItAndKeepsToday(final TestInfo test) throws Exception {
        final Path workDir = TestWorkDir.of(test);
        final Path ingestDir = workDir.resolve("ingest");
        final Path logDir = SchemaLog.directoryOf(ingestDir, LogRetentionTest.AMOUNT.name());
        final long today = LocalDate.now(ZoneOffset.UTC).toEpochDay();
        try (SchemaLog log = SchemaLog.open(logDir, LogRetentionTest.AMOUNT, LogRetentionTest.PARTITIONS)) {
            long account = 0;
            for (int p = 0; p < LogRetentionTest.PARTITIONS; p++) {
                account = LogRetentionTest.appendPast(logDir, p, today - 5, account);
            }
            final SchemaRecord record = new SchemaRecord(LogRetentionTest.AMOUNT.layout());
            final UnsafeBuffer buffer = new UnsafeBuffer(new byte[LogRetentionTest.AMOUNT.layout().length()]);
            for (int i = 0; i < 20; i++) {
                record.wrapForWrite(buffer, 0).sequence(i).setLong(0, i).setTimestamp(1, System.currentTimeMillis()).setLong(2, 1);
                log.append(record);
            }
        }
        final Path oldDay = logDir.resolve("p-000").resolve(LocalDate.ofEpochDay(today - 5).toString().replace("-", "") + "F.cq4");
        final Path today0 = logDir.resolve("p-000").resolve(LocalDate.ofEpochDay(today).toString().replace("-", "") + "F.cq4");
        assertThat(oldDay).exists();
        final Path config = Files.writeString(workDir.resolve("retention.yaml"), "ingest:\n  dir: " + ingestDir
                + "\n  retention:\n    days: 2\n    check-seconds: 1\n");
        try (LocalCluster cluster = LocalCluster.builder().members(1).configFile(config).workDir(workDir).start()) {
            await().atMost(Duration.ofSeconds(60)).until(() -> !Files.exists(oldDay));
            assertThat(today0).as("today's file").exists();
            await().atMost(Duration.ofSeconds(10)).until(() -> Files.readString(cluster.members().get(0).logFile())
                    .contains("ingest retention deleted " + LogRetentionTest.PARTITIONS + " day file(s)"));
        }
    }
}
