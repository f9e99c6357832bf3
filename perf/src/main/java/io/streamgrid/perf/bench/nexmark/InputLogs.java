package io.streamgrid.perf.bench.nexmark;

import io.streamgrid.jobs.ingest.ChronicleLogs;
import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.ingest.KafkaLogs;
import io.streamgrid.jobs.ingest.LogSource;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.perf.BenchContext;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static io.streamgrid.perf.bench.nexmark.NexmarkSchemas.AUCTION;
import static io.streamgrid.perf.bench.nexmark.NexmarkSchemas.BID;
import static io.streamgrid.perf.bench.nexmark.NexmarkSchemas.PERSON;

/**
 * Where a NEXMark run's schema logs are, as StreamGrid's jobs read them: Chronicle queues under an
 * ingest directory (the members' host), or Kafka topics (a cluster across hosts). The benchmark
 * writes the events there, and makes the logs its jobs emit into empty again before each run.
 */
sealed interface InputLogs {
    /** The logs, as the jobs open them. */
    LogSource source();

    /** The options StreamGrid's jobs run with over these logs. */
    JobOptions jobOptions(long snapshotIntervalMs, int parallelism);

    /** The log of {@code schema} emptied (or created) and open, with {@code partitions} partitions. */
    EventLog fresh(EventSchema schema, int partitions);

    /** For messages: a directory, or a broker and its topics. */
    default String describe() {
        return source().describe();
    }

    /** Empties the three logs of NEXMark's events and creates them afresh, so jobs can start on them. */
    default void createEmptyEventLogs(final int partitions) {
        for (final EventSchema schema : List.of(PERSON, AUCTION, BID)) {
            fresh(schema, partitions).close();
        }
    }

    /** Chronicle queues under {@code ingestDir}, each log in {@link SchemaLog#directoryOf}. */
    static InputLogs chronicle(final Path ingestDir) {
        return new Chronicle(ingestDir);
    }

    /**
     * Kafka topics of {@code logs}; {@code ingestDir} is where the jobs keep what is theirs on the
     * member's disk (a job's options name one whatever its logs).
     */
    static InputLogs kafka(final KafkaLogs logs, final Path ingestDir) {
        return new Kafka(logs, ingestDir);
    }

    /** Chronicle queues on this host. */
    record Chronicle(Path ingestDir) implements InputLogs {
        @Override
        public LogSource source() {
            return ChronicleLogs.under(ingestDir, PERSON.name());
        }

        @Override
        public JobOptions jobOptions(final long snapshotIntervalMs, final int parallelism) {
            return new JobOptions(ingestDir, snapshotIntervalMs, parallelism);
        }

        @Override
        public EventLog fresh(final EventSchema schema, final int partitions) {
            final Path log = SchemaLog.directoryOf(ingestDir, schema.name());
            BenchContext.empty(log);
            return SchemaLog.open(log, schema, partitions);
        }
    }

    /** Topics on a Kafka cluster. */
    record Kafka(KafkaLogs logs, Path ingestDir) implements InputLogs {
        private static final long ADMIN_TIMEOUT_S = 60;

        @Override
        public LogSource source() {
            return logs;
        }

        @Override
        public JobOptions jobOptions(final long snapshotIntervalMs, final int parallelism) {
            return new JobOptions(ingestDir, snapshotIntervalMs, parallelism).withKafka(logs);
        }

        /**
         * Deletes the log's topic when it exists and waits until the cluster no longer lists it, then
         * creates it anew: a topic cannot be emptied in place (records deleted up to an offset keep
         * their offsets, and a log's record index is its offset).
         */
        @Override
        public EventLog fresh(final EventSchema schema, final int partitions) {
            final String topic = logs.topic(schema.name());
            try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, logs.bootstrapServers()))) {
                if (admin.listTopics().names().get(ADMIN_TIMEOUT_S, TimeUnit.SECONDS).contains(topic)) {
                    admin.deleteTopics(List.of(topic)).all().get(ADMIN_TIMEOUT_S, TimeUnit.SECONDS);
                    final long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(ADMIN_TIMEOUT_S);
                    while (admin.listTopics().names().get(ADMIN_TIMEOUT_S, TimeUnit.SECONDS).contains(topic)) {
                        if (System.nanoTime() > deadline) {
                            throw new IllegalStateException("topic " + topic + " still listed " + ADMIN_TIMEOUT_S + " s after its deletion");
                        }
                        InJvmRun.sleep(50);
                    }
                }
            } catch (final ExecutionException | TimeoutException e) {
                throw new IllegalStateException("could not delete topic " + topic + " on " + logs.bootstrapServers(), e);
            } catch (final InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while deleting topic " + topic, e);
            }
            return logs.openOrCreate(schema, schema.name(), partitions);
        }
    }
}
