package io.streamgrid.jobs;

import io.streamgrid.jobs.schema.KeyPartitions;
import io.streamgrid.sink.SnapshotEntries;
import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.JobStatus;
import io.streamgrid.jobs.ingest.EventGenerator;
import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.ingest.GeneratorSpec;
import io.streamgrid.jobs.ingest.LogReader;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.jobs.schema.SchemaLayout;
import io.streamgrid.jobs.schema.SchemaRecord;
import io.streamgrid.jobs.window.WindowOracle;
import org.agrona.DirectBuffer;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.function.Function;
import java.util.function.Supplier;

import static org.awaitility.Awaitility.await;

import org.awaitility.core.ConditionTimeoutException;

/** Helpers for job tests that run on one embedded member (not about failure, so no processes). */
public final class JobTestSupport {
    /**
     * The snapshot entries of the members these tests start (the member setting
     * {@link SnapshotEntries#PROPERTY}): small, so that their restores put window and keyed states
     * together from many entries, as large states are in production.
     */
    public static final int SNAPSHOT_ENTRY_BYTES = 256;

    private JobTestSupport() {
    }

    /** A lone member with Jet, joining nothing. */
    public static HazelcastInstance embeddedMember() {
        final Config config = new Config();
        config.setClusterName("jobs-test-" + UUID.randomUUID());
        config.setProperty("hazelcast.logging.type", "jdk");
        config.setProperty(SnapshotEntries.PROPERTY, Integer.toString(SNAPSHOT_ENTRY_BYTES));
        config.setProperty("hazelcast.local.localAddress", "127.0.0.1"); // loopback only
        config.getNetworkConfig().setPort(0).setPortAutoIncrement(true);
        config.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
        config.getNetworkConfig().getJoin().getAutoDetectionConfig().setEnabled(false);
        config.getJetConfig().setEnabled(true).setCooperativeThreadCount(2);
        return Hazelcast.newHazelcastInstance(config);
    }

    /**
     * Generates {@code spec}'s events into {@code log} (of the spec's type), then the end of the
     * stream in every partition, and returns them as the oracle sees them (payload by
     * {@code payload}), in append order.
     */
    public static List<WindowOracle.Event> generate(final GeneratorSpec spec, final EventLog log,
                                                    final Function<SchemaRecord, Object> payload) {
        final List<WindowOracle.Event> events = new ArrayList<>();
        new EventGenerator(spec).generate(record -> {
            log.append(record);
            events.add(new WindowOracle.Event(KeyPartitions.partitionOf(record.keyLong(), log.partitions()), record.keyLong(), record.eventTime(),
                    record.sequence(), payload.apply(record)));
        });
        log.appendEndOfStream();
        return events;
    }

    /**
     * Waits until {@code actual} equals {@code expected}, then checks it stays so for a second;
     * fails at once if the job fails or is suspended (a failure, with suspend-on-failure).
     */
    public static <K, V> void awaitEqual(final Map<K, V> expected, final Supplier<Map<K, V>> actual, final Duration timeout,
                                         final Job job) {
        try {
            await().atMost(timeout).pollInterval(Duration.ofMillis(250))
                    .failFast("job " + job.getName() + " failed or was suspended",
                            () -> job.getStatus() == JobStatus.FAILED || job.getStatus() == JobStatus.SUSPENDED)
                    .until(() -> Objects.equals(expected, actual.get()));
        } catch (final ConditionTimeoutException e) {
            throw new AssertionError("state never matched the oracle: " + diff(expected, actual.get()), e);
        }
        // One more read a second later, however long the read takes (a few seconds for 400,000 entries on a busy
        // machine: an atMost on it failed a run whose state was right).
        try {
            Thread.sleep(1_000);
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
        final Map<K, V> again = actual.get();
        if (!Objects.equals(expected, again)) {
            throw new AssertionError("state matched the oracle, then a second later no longer: " + diff(expected, again));
        }
    }

    /** What {@link #readUntilIdle} hands each record: the reader's buffer and the record's length. */
    @FunctionalInterface
    public interface RecordVisitor {
        void visit(DirectBuffer buffer, int length);
    }

    /**
     * Reads every partition of {@code log} from its start, handing each record to {@code visitor},
     * until nothing more comes for {@code idle} — for logs whose end a test cannot name (a Kafka
     * topic's last offset may be a transaction marker no reader returns).
     */
    public static void readUntilIdle(final EventLog log, final Duration idle, final RecordVisitor visitor) {
        for (int p = 0; p < log.partitions(); p++) {
            try (LogReader reader = log.reader(p, LogReader.START)) {
                long lastRead = System.nanoTime();
                while (System.nanoTime() - lastRead < idle.toNanos()) {
                    final int length = reader.next();
                    if (length < 0) {
                        Thread.onSpinWait();
                        continue;
                    }
                    lastRead = System.nanoTime();
                    visitor.visit(reader.buffer(), length);
                }
            }
        }
    }

    /** The events jobs emitted into the log of {@code schema} under {@code ingestDir} so far ({@link SchemaLayout#KIND_EMITTED} records). */
    public static long emittedIn(final Path ingestDir, final EventSchema schema) {
        final long[] count = {0};
        forEachEmitted(ingestDir, schema, record -> count[0]++);
        return count[0];
    }

    /** Hands each event jobs emitted into the log of {@code schema} under {@code ingestDir} so far to {@code visitor}, partition by partition, in log order. */
    public static void forEachEmitted(final Path ingestDir, final EventSchema schema, final java.util.function.Consumer<SchemaRecord> visitor) {
        final SchemaRecord record = new SchemaRecord(schema.layout());
        try (SchemaLog log = SchemaLog.openExisting(SchemaLog.directoryOf(ingestDir, schema.name()), schema)) {
            for (int p = 0; p < log.partitions(); p++) {
                try (LogReader reader = log.reader(p, LogReader.START)) {
                    int length;
                    while ((length = reader.next()) >= 0) {
                        if (reader.buffer().getByte(0) == SchemaLayout.KIND_EMITTED) {
                            visitor.accept(record.wrap(reader.buffer(), 0, length));
                        }
                    }
                }
            }
        }
    }

    /** "N expected, N found, L lost, D extra, W wrong" plus a few examples of each. */
    public static <K, V> String diff(final Map<K, V> expected, final Map<K, V> actual) {
        final List<String> lost = new ArrayList<>();
        final List<String> wrong = new ArrayList<>();
        final List<String> extra = new ArrayList<>();
        expected.forEach((k, v) -> {
            if (!actual.containsKey(k)) {
                lost.add(k + "=" + v);
            } else if (!Objects.equals(v, actual.get(k))) {
                wrong.add(k + ": expected " + v + ", found " + actual.get(k));
            }
        });
        actual.forEach((k, v) -> {
            if (!expected.containsKey(k)) {
                extra.add(k + "=" + v);
            }
        });
        return expected.size() + " expected, " + actual.size() + " found, " + lost.size() + " lost, " + extra.size()
                + " extra, " + wrong.size() + " wrong; e.g. lost " + head(lost) + ", extra " + head(extra) + ", wrong " + head(wrong);
    }

    private static List<String> head(final List<String> items) {
        return items.subList(0, Math.min(5, items.size()));
    }
}
