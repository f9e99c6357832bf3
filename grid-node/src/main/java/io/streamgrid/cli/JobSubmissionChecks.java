package io.streamgrid.cli;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.jet.Job;
import com.hazelcast.jet.config.JobConfig;
import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.CqlSession;
import io.streamgrid.jobs.ingest.EventLog;
import io.streamgrid.jobs.ingest.SchemaLog;
import io.streamgrid.jobs.pipeline.JobDefinition;
import io.streamgrid.jobs.pipeline.CassandraOutput;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.jobs.pipeline.Replay;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.node.ConfigException;
import io.streamgrid.node.impl.ConfigTree;
import io.streamgrid.sink.CassandraSchema;
import io.streamgrid.sink.CassandraTarget;
import io.streamgrid.sink.SchemaMismatchException;
import io.streamgrid.node.impl.JobCatalog;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** What a job submission checks before anything reaches the cluster, and the lines that say what it did. */
final class JobSubmissionChecks {
    private JobSubmissionChecks() {
    }

    /** "submitted NAME (id …), exactly-once, snapshots every …" or, for a replay, "replaying NAME as NAME.SUFFIX …". */
    static String submittedLine(final JobDefinition job, final Job submitted, final JobOptions options) {
        final Replay replay = options.replay();
        return (replay == null ? "submitted " + job.name() : "replaying " + job.name() + " " + replay.describe() + " as "
                + submitted.getName()) + " (id " + submitted.getIdString() + "), exactly-once, snapshots every "
                + options.snapshotIntervalMs() + " ms";
    }

    /** "; its state restored from the checkpoint copied" when the job starts from one ({@code --from-checkpoint}). */
    static String restoredNote(final JobConfig submitted) {
        return submitted.getInitialSnapshotName() == null ? "" : "; its state restored from the checkpoint copied";
    }

    /** Where the job writes: its state maps and side maps (a replay's: suffixed). */
    static String outputsLine(final JobDefinition job, final Replay replay) {
        final java.util.function.UnaryOperator<String> named = replay == null ? map -> map : replay::mapName;
        return "writes " + job.stateMaps().stream().map(named).toList() + ", side outputs in "
                + job.sideMaps().stream().map(named).toList();
    }

    /**
     * Refuses a replay whose Jet job is already there (not finished) or one of whose maps already
     * holds entries: a replay writes fresh maps, and stale keys of an earlier one would stay.
     */
    static void checkReplayTargets(final HazelcastInstance client, final JobDefinition job, final Replay replay) {
        if (replay == null) {
            return;
        }
        final Job existing = client.getJet().getJob(replay.jobName(job.name()));
        if (existing != null && !existing.getStatus().isTerminal()) {
            throw new ConfigException("a replay named " + existing.getName() + " is already " + existing.getStatus()
                    + ": choose another --into, or cancel it first ('streamgrid job cancel " + existing.getName() + "')");
        }
        final List<String> maps = new ArrayList<>(job.stateMaps());
        maps.addAll(job.sideMaps());
        for (final String map : maps) {
            final String target = replay.mapName(map);
            final int size = client.getMap(target).size();
            if (size > 0) {
                throw new ConfigException("map " + target + " already holds " + size + " entries (an earlier replay into "
                        + replay.into() + "?): a replay writes fresh maps; choose another --into or destroy that map");
            }
        }
    }

    /**
     * Refuses a job one of whose schema logs is missing or holds an incompatible version, before
     * anything reaches the cluster.
     */
    static void checkLogs(final JobDefinition job, final JobOptions options) {
        if (options.kafka() != null) {
            for (final EventSchema schema : job.schemas()) {
                try (EventLog log = options.kafka().open(schema, schema.name())) {
                    // exists, and holds a compatible schema
                } catch (final IllegalStateException | IllegalArgumentException e) {
                    throw new ConfigException("job " + job.name() + " reads schema " + schema.name() + ": " + e.getMessage(), e);
                }
            }
            return;
        }
        for (final EventSchema schema : job.schemas()) {
            final Path dir = logDirectory(options, schema);
            if (!SchemaLog.exists(dir)) {
                throw new ConfigException("job " + job.name() + " reads schema " + schema.name() + ", but there is no log of it in "
                        + dir + ": load its events first ('streamgrid ingest load FILE --schema " + schema.name()
                        + "' or 'streamgrid ingest generate --schema " + schema.name() + "')");
            }
            try {
                SchemaLog.checkCompatible(dir, schema);
            } catch (final IllegalArgumentException e) {
                throw new ConfigException("job " + job.name() + ": " + e.getMessage(), e);
            }
        }
    }

    /**
     * The records in the job's logs now, control records included, and their partitions: Chronicle
     * counts from the queues' indexes; a Kafka topic's count is its partitions' end offsets (read
     * committed), which include records retention has deleted — a replay of a trimmed topic then
     * shows progress from above 0, and still says when it has caught up.
     */
    record LogSize(long records, int partitions) {
        static LogSize of(final JobDefinition job, final JobOptions options) {
            long records = 0;
            int partitions = 0;
            for (final EventSchema schema : job.schemas()) {
                try (EventLog log = options.logs(job.schemas().get(0).name()).open(schema, schema.name())) {
                    if (log instanceof SchemaLog chronicle) {
                        records += chronicle.records();
                    } else {
                        for (int p = 0; p < log.partitions(); p++) {
                            records += log.lastIndexNow(p) + 1;
                        }
                    }
                    partitions += log.partitions();
                }
            }
            return new LogSize(records, partitions);
        }
    }

    /** Where {@code schema}'s log is under the job options' ingest directory. */
    private static Path logDirectory(final JobOptions options, final EventSchema schema) {
        return SchemaLog.directoryOf(options.ingestDir().toAbsolutePath(), schema.name());
    }

    /** Where the job's schema logs are, for the submit line. */
    static String logDirectories(final JobDefinition job, final JobOptions options) {
        if (options.kafka() != null) {
            return job.schemas().stream().map(schema -> "topic " + options.kafka().topic(schema.name()))
                    .collect(java.util.stream.Collectors.joining(", ")) + " of Kafka " + options.kafka().bootstrapServers();
        }
        return job.schemas().stream().map(schema -> logDirectory(options, schema).toString())
                .collect(java.util.stream.Collectors.joining(", "));
    }

    /**
     * Creates (or checks) the job's tables — a replay's own tables when {@code replay} is given —
     * then describes where the live job's results go (a replay's submission renames them).
     */
    static CassandraOutput cassandraOutput(final JobDefinition job, final ConfigTree tree, final Replay replay) {
        final CassandraTarget target = JobCatalog.cassandraTarget(tree);
        final CassandraOutput output = job.cassandraOutput(target).orElseThrow(() -> new ConfigException("--cassandra: job "
                + job.name() + " declares no Cassandra tables"));
        try (CqlSession session = target.connect()) {
            for (final CassandraOutput.Binding binding : (replay == null ? output : replay.output(output)).bindings()) {
                CassandraSchema.ensure(session, target, binding.table());
            }
        } catch (final AllNodesFailedException e) {
            throw new ConfigException("no Cassandra node answered at " + target.contactPoints()
                    + ": start one ('streamgrid cassandra') or set cassandra.contact-points", e);
        } catch (final SchemaMismatchException e) {
            throw new ConfigException(e.getMessage(), e);
        }
        return output;
    }
}
