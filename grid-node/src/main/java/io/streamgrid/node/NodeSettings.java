package io.streamgrid.node;

import io.streamgrid.sink.SnapshotEntries;
import io.streamgrid.jobs.ingest.KafkaLogs;
import io.streamgrid.jobs.ingest.LogRetention;
import io.streamgrid.jobs.schema.EventSchema;
import io.streamgrid.node.impl.SettingsLoader;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The validated settings of one grid member. Built from the defaults in
 * {@code streamgrid-defaults.yaml} (shipped in the jar, where every setting is documented), an
 * optional user file, then command-line overrides — see {@link #load(Optional, Overrides)}.
 * Immutable; the constructor rejects invalid values with a {@link ConfigException}.
 */
public record NodeSettings(
        String clusterName,
        String host,
        boolean bindAny,
        int port,
        List<MemberAddress> members,
        int joinWaitSeconds,
        int heartbeatTimeoutSeconds,
        Path dataDir,
        int backupCount,
        int asyncBackupCount,
        int eventJournalCapacity,
        boolean splitBrainProtectionEnabled,
        int splitBrainMinimumClusterSize,
        int gracefulShutdownMaxWaitSeconds,
        int maxParallelMigrations,
        int retryPauseMillis,
        boolean promptMoveNotices,
        boolean jetEnabled,
        int jetCooperativeThreadCount,
        boolean healthCheckEnabled,
        boolean metricsEnabled,
        String metricsHost,
        int metricsPort,
        Path ingestDir,
        KafkaLogs ingestKafka,
        int ingestPartitions,
        boolean ingestAllowNetworkFileSystem,
        LogRetention.Rule ingestRetention,
        int ingestRetentionCheckSeconds,
        int sideMapTtlSeconds,
        int sideMapMaxEntriesPerMember,
        Map<String, Integer> stateTtlSecondsByMap,
        boolean allowCodeUpload,
        boolean allowIoConnectors,
        int snapshotEntryBytes,
        List<String> deserializationAllowed,
        List<EventSchema> schemas,
        PersistenceSettings persistence) {

    /** Whether the logs are Kafka topics ({@code ingest.kind: kafka}); else Chronicle Queue in {@link #ingestDir()}. */
    public boolean ingestOnKafka() {
        return ingestKafka != null;
    }

    /** Hazelcast's partition count; the event journal needs at least one slot per partition. */
    public static final int PARTITION_COUNT = 271;

    public NodeSettings {
        Objects.requireNonNull(dataDir, "dataDir");
        if (clusterName == null || clusterName.isBlank()) {
            throw new ConfigException("cluster-name is blank: give the name members share, e.g. streamgrid");
        }
        if (host == null || host.isBlank()) {
            throw new ConfigException("network.host is blank: give the address to bind, e.g. 127.0.0.1");
        }
        MemberAddress.checkPort(port, "network.port");
        members = List.copyOf(members);
        if (members.isEmpty()) {
            throw new ConfigException("network.members is empty: list at least one member, e.g. [127.0.0.1:5701]");
        }
        checkRange(joinWaitSeconds, 0, 300, "network.join-wait-seconds");
        if (!SnapshotEntries.allowed(snapshotEntryBytes)) {
            throw new ConfigException("jobs.snapshot-entry-bytes is " + snapshotEntryBytes + ": give " + SnapshotEntries.MIN_BYTES
                    + " to " + SnapshotEntries.LIMIT_BYTES + ", or 0 for the default (3/4 of a G1 heap region, at most 6 MiB)");
        }
        checkRange(heartbeatTimeoutSeconds, 2, 3600, "network.heartbeat-timeout-seconds");
        checkRange(backupCount, 0, 6, "state-maps.backup-count");
        checkRange(asyncBackupCount, 0, 6 - backupCount, "state-maps.async-backup-count (backup-count plus it at most 6)");
        checkRange(eventJournalCapacity, PARTITION_COUNT, Integer.MAX_VALUE, "state-maps.event-journal-capacity");
        checkRange(splitBrainMinimumClusterSize, 2, 1000, "split-brain-protection.minimum-cluster-size");
        checkRange(gracefulShutdownMaxWaitSeconds, 1, 86_400, "shutdown.graceful-max-wait-seconds");
        checkRange(maxParallelMigrations, 1, 100, "migration.max-parallel-migrations");
        checkRange(retryPauseMillis, 1, 10_000, "migration.retry-pause-millis");
        checkRange(jetCooperativeThreadCount, 0, 1024, "jet.cooperative-thread-count");
        checkRange(metricsPort, 0, 65_535, "metrics.port");
        if (metricsEnabled && (metricsHost == null || metricsHost.isBlank())) {
            throw new ConfigException("metrics.host is blank: give the address to serve metrics on, e.g. 127.0.0.1");
        }
        if (metricsEnabled && resolvedMetricsPort(port, metricsPort) > 65_535) {
            throw new ConfigException("metrics.port is 0, which means the member port + 1000 = " + (port + 1000)
                    + ", beyond 65535: give metrics.port (or --metrics-port) explicitly");
        }
        if (metricsEnabled && metricsPort == port) {
            throw new ConfigException("metrics.port " + metricsPort + " is the member port: give the metrics endpoint a port of its own");
        }
        Objects.requireNonNull(ingestDir, "ingestDir");
        Objects.requireNonNull(ingestRetention, "ingestRetention");
        checkRange(ingestRetentionCheckSeconds, 1, 86_400, "ingest.retention.check-seconds");
        checkRange(sideMapTtlSeconds, 0, Integer.MAX_VALUE, "side-maps.ttl-seconds");
        checkRange(sideMapMaxEntriesPerMember, 0, Integer.MAX_VALUE, "side-maps.max-entries-per-member");
        stateTtlSecondsByMap = Map.copyOf(stateTtlSecondsByMap);
        schemas = List.copyOf(schemas);
        deserializationAllowed = List.copyOf(deserializationAllowed);
        Objects.requireNonNull(persistence, "persistence");
        stateTtlSecondsByMap.forEach((map, ttl) -> checkRange(ttl, 0, Integer.MAX_VALUE, "state-ttl-seconds of " + map));
    }

    /** Command-line values that replace file values; an empty field leaves the file's value. */
    public record Overrides(
            Optional<String> clusterName,
            Optional<String> host,
            Optional<Integer> port,
            Optional<List<MemberAddress>> members,
            Optional<Path> dataDir,
            Optional<Integer> metricsPort) {

        public static Overrides none() {
            return new Overrides(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty(),
                    Optional.empty());
        }
    }

    /**
     * Loads the defaults, applies {@code userFile} when present, then {@code overrides}.
     *
     * @throws ConfigException when the file cannot be read or parsed, names an unknown key, or a
     *                         value is of the wrong type or out of range
     */
    public static NodeSettings load(final Optional<Path> userFile, final Overrides overrides) {
        return SettingsLoader.load(userFile, overrides);
    }

    /** The port of the member's metrics endpoint (when {@link #metricsEnabled()}): metrics.port, or the member port + 1000 for 0. */
    public int metricsPortResolved() {
        return resolvedMetricsPort(port, metricsPort);
    }

    private static int resolvedMetricsPort(final int port, final int metricsPort) {
        return metricsPort == 0 ? port + 1000 : metricsPort;
    }

    /** The address this member advertises. */
    public MemberAddress address() {
        return new MemberAddress(host, port);
    }

    private static void checkRange(final int value, final int min, final int max, final String key) {
        if (value < min || value > max) {
            throw new ConfigException(key + " is " + value + ": it must be from " + min
                    + (max == Integer.MAX_VALUE ? " up" : " to " + max));
        }
    }
}
