package io.streamgrid.jobs.pipeline;

import com.hazelcast.jet.config.JobConfig;
import com.hazelcast.jet.config.ProcessingGuarantee;

import io.streamgrid.jobs.ingest.ChronicleLogs;
import io.streamgrid.jobs.ingest.KafkaLogs;
import io.streamgrid.jobs.ingest.LogSource;

import java.nio.file.Path;
import java.util.Objects;

/**
 * How a job runs.
 *
 * @param ingestDir          the ingest log's directory, as the members see it (Chronicle logs)
 * @param snapshotIntervalMs Jet snapshot interval (exactly-once), at least 10 ms
 * @param localParallelism   processors per member
 * @param replay             null for the live job; else it runs as that {@link Replay} (own maps, tables and name)
 * @param kafka              null: the logs are Chronicle queues under {@code ingestDir}; else these Kafka topics
 */
public record JobOptions(Path ingestDir, long snapshotIntervalMs, int localParallelism, Replay replay, KafkaLogs kafka) {
    public static final long DEFAULT_SNAPSHOT_INTERVAL_MS = 1_000;

    public JobOptions {
        Objects.requireNonNull(ingestDir, "ingestDir");
        if (snapshotIntervalMs < 10) {
            throw new IllegalArgumentException("snapshotIntervalMs must be at least 10, was " + snapshotIntervalMs);
        }
        if (localParallelism < 1) {
            throw new IllegalArgumentException("localParallelism must be positive, was " + localParallelism);
        }
    }

    /** Options of a live job. */
    public JobOptions(final Path ingestDir, final long snapshotIntervalMs, final int localParallelism) {
        this(ingestDir, snapshotIntervalMs, localParallelism, null, null);
    }

    /** Where a job whose first schema is {@code firstSchema} reads its logs. */
    public LogSource logs(final String firstSchema) {
        return kafka != null ? kafka : ChronicleLogs.under(ingestDir, firstSchema);
    }

    /**
     * The Jet config every StreamGrid job runs with: named (a replay: {@link Replay#jobName}), EXACTLY_ONCE at this snapshot interval,
     * and suspended on failure — keeping its snapshot (decided sink transactions, state) instead of
     * deleting it; {@code streamgrid job resume NAME} continues it.
     */
    public JobConfig jobConfig(final String jobName) {
        return new JobConfig()
                .setName(replay == null ? jobName : replay.jobName(jobName))
                .setProcessingGuarantee(ProcessingGuarantee.EXACTLY_ONCE)
                .setSuspendOnFailure(true)
                .setSnapshotIntervalMillis(snapshotIntervalMs);
    }

    public static JobOptions of(final Path ingestDir) {
        return new JobOptions(ingestDir, DEFAULT_SNAPSHOT_INTERVAL_MS, 1);
    }

    public JobOptions withSnapshotInterval(final long millis) {
        return new JobOptions(ingestDir, millis, localParallelism, replay, kafka);
    }

    public JobOptions withIngestDir(final Path dir) {
        return new JobOptions(dir, snapshotIntervalMs, localParallelism, replay, kafka);
    }

    public JobOptions withLocalParallelism(final int parallelism) {
        return new JobOptions(ingestDir, snapshotIntervalMs, parallelism, replay, kafka);
    }

    /** These options for {@code replay} of the job (null: the live job). */
    public JobOptions withReplay(final Replay replay) {
        return new JobOptions(ingestDir, snapshotIntervalMs, localParallelism, replay, kafka);
    }

    /** These options reading Kafka topics (null: Chronicle logs under the ingest directory). */
    public JobOptions withKafka(final KafkaLogs logs) {
        return new JobOptions(ingestDir, snapshotIntervalMs, localParallelism, replay, logs);
    }
}
