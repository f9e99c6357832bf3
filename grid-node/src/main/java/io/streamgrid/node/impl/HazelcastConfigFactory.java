package io.streamgrid.node.impl;

import com.hazelcast.config.Config;
import com.hazelcast.config.EvictionPolicy;
import com.hazelcast.config.JavaSerializationFilterConfig;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.ListenerConfig;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MapStoreConfig;
import com.hazelcast.config.MaxSizePolicy;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.config.RestApiConfig;
import com.hazelcast.config.RestEndpointGroup;
import com.hazelcast.config.SplitBrainProtectionConfig;
import com.hazelcast.jet.impl.JobRepository;
import com.hazelcast.spi.merge.DiscardMergePolicy;
import io.streamgrid.sink.SnapshotEntries;
import io.streamgrid.client.ClientSettings;
import io.streamgrid.node.MemberAddress;
import io.streamgrid.node.NodeSettings;
import io.streamgrid.node.PersistenceSettings;
import io.streamgrid.sink.CassandraSinks;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Turns {@link NodeSettings} into a Hazelcast member {@link Config}. */
public final class HazelcastConfigFactory {
    /** Every map whose name matches holds keyed state and gets the state-map settings. */
    public static final String STATE_MAP_PATTERN = "state.*";
    /** Jobs' side outputs: events too late for their windows, records that are not valid events. */
    public static final List<String> SIDE_MAP_PATTERNS = List.of("late.*", "rejected.*");
    static final String STATE_SPLIT_BRAIN_PROTECTION = "state-maps-minimum-size";

    private HazelcastConfigFactory() {
    }

    /**
     * Jet's own maps that make a job resume where it was (Hazelcast 5.7's {@code JobRepository}): job
     * records (the DAG and config), execution records (the last completed snapshot and which of
     * the job's two snapshot maps holds it), snapshot data, the copies of snapshots a job is started
     * from ({@code job submit --from-checkpoint}), uploaded resources. Jet's master finds
     * jobs by scanning the records, so a cluster that loads these maps resumes the jobs by itself.
     * With them the Cassandra sink's timestamp ledger, so that every job writing a table after a
     * restart of the whole cluster still writes above what was written before it.
     */
    static final List<String> JOB_MAPS = List.of(JobRepository.JOB_RECORDS_MAP_NAME, JobRepository.JOB_EXECUTION_RECORDS_MAP_NAME,
            JobRepository.SNAPSHOT_DATA_MAP_PREFIX + "*", JobRepository.EXPORTED_SNAPSHOTS_PREFIX + "*",
            JobRepository.RESOURCES_MAP_NAME_PREFIX + "*", CassandraSinks.TIMESTAMP_LEDGER_MAP);

    /**
     * Of those, the snapshot maps (a job's own two, and the copies a job is started from): loaded
     * whole before use and never evicted, and Jet writes every chunk with a put — so their stores
     * do not read Cassandra by key ({@link CassandraMapStore#READ_BY_KEY}).
     */
    private static final List<String> JET_SNAPSHOT_MAPS = List.of(JobRepository.SNAPSHOT_DATA_MAP_PREFIX + "*",
            JobRepository.EXPORTED_SNAPSHOTS_PREFIX + "*");

    /** "state." of "state.*" or "state.positions": the kind of map a name or pattern is of. */
    private static String prefixOf(final String mapNameOrPattern) {
        return mapNameOrPattern.substring(0, mapNameOrPattern.indexOf('.') + 1);
    }

    /** The map store of persisted maps; their shared {@link StateTable} goes into the config's user context. */
    private static MapStoreConfig mapStoreConfig(final StateTable table, final PersistenceSettings persistence) {
        final boolean behind = persistence.writeMode() == PersistenceSettings.WriteMode.WRITE_BEHIND;
        return new MapStoreConfig().setEnabled(true)
                .setFactoryImplementation(CassandraMapStore.factory(table))
                .setWriteDelaySeconds(behind ? persistence.writeDelaySeconds() : 0)
                .setWriteBatchSize(persistence.writeBatchSize())
                .setWriteCoalescing(true)
                .setInitialLoadMode(persistence.initialLoad() == PersistenceSettings.InitialLoad.EAGER
                        ? MapStoreConfig.InitialLoadMode.EAGER : MapStoreConfig.InitialLoadMode.LAZY);
    }

    /**
     * Jet's job maps through the same table, write-through (Jet acknowledges a snapshot's data before
     * its execution record names it, so Cassandra's copy keeps that order) and loaded eagerly (Jet
     * clears a snapshot map before reusing it; only loaded entries are cleared in Cassandra too).
     * Otherwise Jet's own settings of its maps, which a more specific name would replace: backups as
     * Jet's, statistics on, and a merge after a split brain that keeps what the cluster has.
     */
    private static void persistJetJobMaps(final Config config, final StateTable table) {
        final MapStoreConfig store = new MapStoreConfig().setEnabled(true)
                .setFactoryImplementation(CassandraMapStore.factory(table))
                .setWriteDelaySeconds(0)
                .setInitialLoadMode(MapStoreConfig.InitialLoadMode.EAGER);
        final MapStoreConfig snapshotStore = new MapStoreConfig(store).setProperty(CassandraMapStore.READ_BY_KEY, "false");
        for (final String name : JOB_MAPS) {
            final MapConfig jobMap = new MapConfig(name).setBackupCount(config.getJetConfig().getBackupCount())
                    .setStatisticsEnabled(true).setMapStoreConfig(JET_SNAPSHOT_MAPS.contains(name) ? snapshotStore : store);
            jobMap.getMergePolicyConfig().setPolicy(DiscardMergePolicy.class.getName());
            config.addMapConfig(jobMap);
        }
    }

    /**
     * Member attribute: "true" when the member keeps Jet's job records and snapshots in Cassandra
     * (persistence.jobs), so that clients tell durable checkpoints by asking the members, not
     * their own configuration.
     */
    public static final String DURABLE_JOBS_ATTRIBUTE = "streamgrid.durable-jobs";

    @SuppressWarnings("deprecation") // RestApiConfig: the member-port health endpoint is still the CE way in 5.7
    public static Config memberConfig(final NodeSettings settings) {
        final Config config = new Config();
        config.setClusterName(settings.clusterName());
        config.setProperty("hazelcast.logging.type", "jdk");
        config.setProperty("hazelcast.phone.home.enabled", "false");
        if (settings.snapshotEntryBytes() > 0) {
            config.setProperty(SnapshotEntries.PROPERTY, Integer.toString(settings.snapshotEntryBytes()));
        }
        config.setProperty("hazelcast.local.localAddress", settings.host());
        // Listen where configured, not on every interface (Hazelcast's default): CE has no
        // authentication, so an open interface is an open grid. Outgoing member connections
        // leave from the same address.
        config.setProperty("hazelcast.socket.bind.any", Boolean.toString(settings.bindAny()));
        config.setProperty("hazelcast.socket.server.bind.any", Boolean.toString(settings.bindAny()));
        config.setProperty("hazelcast.socket.client.bind.any", Boolean.toString(settings.bindAny()));
        config.setProperty("hazelcast.wait.seconds.before.join", Integer.toString(settings.joinWaitSeconds()));
        config.setProperty("hazelcast.max.no.heartbeat.seconds", Integer.toString(settings.heartbeatTimeoutSeconds()));
        // SIGTERM (Ctrl-C, `cluster stop`, systemd) shuts down gracefully: partitions migrate first.
        config.setProperty("hazelcast.shutdownhook.enabled", "true");
        config.setProperty("hazelcast.shutdownhook.policy", "GRACEFUL");
        config.setProperty("hazelcast.graceful.shutdown.max.wait", Integer.toString(settings.gracefulShutdownMaxWaitSeconds()));
        config.setProperty("hazelcast.partition.max.parallel.migrations", Integer.toString(settings.maxParallelMigrations()));
        // Retries of an operation whose partition is moving pause at most this long; the retry count
        // keeps Hazelcast's budget of about two minutes (250 retries at its 500 ms cap) before the
        // operation fails.
        config.setProperty("hazelcast.invocation.retry.pause.millis", Integer.toString(settings.retryPauseMillis()));
        config.setProperty("hazelcast.invocation.max.retry.count", Integer.toString(Math.max(250, 125_000 / settings.retryPauseMillis())));
        if (settings.promptMoveNotices()) {
            // A partition's move is told to its source member when it is committed, not ten moves later.
            config.addListenerConfig(new ListenerConfig(new CompletedMigrationPublisher()));
        }

        final NetworkConfig network = config.getNetworkConfig();
        network.setPort(settings.port()).setPortAutoIncrement(false);
        network.setPublicAddress(settings.address().toString());
        final JoinConfig join = network.getJoin();
        join.getMulticastConfig().setEnabled(false);
        join.getAutoDetectionConfig().setEnabled(false);
        // A starting member asks the listed members for a master this long before it claims the
        // role itself: the same wait as above (Hazelcast's default, 5 s, was most of a start).
        join.getTcpIpConfig().setEnabled(true).setConnectionTimeoutSeconds(Math.max(1, settings.joinWaitSeconds()));
        for (final MemberAddress member : settings.members()) {
            join.getTcpIpConfig().addMember(member.toString());
        }
        if (settings.healthCheckEnabled()) {
            network.setRestApiConfig(new RestApiConfig().setEnabled(true).disableAllGroups()
                    .enableGroups(RestEndpointGroup.HEALTH_CHECK));
        }

        final MapConfig stateMaps = new MapConfig(STATE_MAP_PATTERN)
                .setBackupCount(settings.backupCount())
                .setAsyncBackupCount(settings.asyncBackupCount());
        stateMaps.getEventJournalConfig().setEnabled(true).setCapacity(settings.eventJournalCapacity());
        if (settings.splitBrainProtectionEnabled()) {
            config.addSplitBrainProtectionConfig(new SplitBrainProtectionConfig(
                    STATE_SPLIT_BRAIN_PROTECTION, true, settings.splitBrainMinimumClusterSize()));
            stateMaps.setSplitBrainProtectionName(STATE_SPLIT_BRAIN_PROTECTION);
            // The smaller side refused every write during the split, so its copy is only ever older:
            // the larger side's entries win whole, and a key it deleted (client delete, expiry, a
            // session's retraction) stays deleted. Hazelcast's default (put-if-absent) brought such
            // keys back from the smaller side.
            stateMaps.getMergePolicyConfig().setPolicy(DiscardMergePolicy.class.getName());
        }
        config.addMapConfig(stateMaps);
        final Map<String, MapConfig> mapConfigByPrefix = new HashMap<>();
        mapConfigByPrefix.put(prefixOf(STATE_MAP_PATTERN), stateMaps);

        // Side outputs are bounded, so that a stream of late or bad input cannot fill the heap.
        for (final String pattern : SIDE_MAP_PATTERNS) {
            final MapConfig side = new MapConfig(pattern).setTimeToLiveSeconds(settings.sideMapTtlSeconds());
            if (settings.sideMapMaxEntriesPerMember() > 0) {
                side.getEvictionConfig().setEvictionPolicy(EvictionPolicy.LRU).setMaxSizePolicy(MaxSizePolicy.PER_NODE)
                        .setSize(settings.sideMapMaxEntriesPerMember());
            }
            config.addMapConfig(side);
            mapConfigByPrefix.put(prefixOf(pattern), side);
        }

        final PersistenceSettings persistence = settings.persistence();
        final StateTable table = persistence.enabled() ? new StateTable(persistence) : null;
        if (table != null) {
            config.getUserContext().put(StateTable.USER_CONTEXT_KEY, table);
        }
        final MapStoreConfig store = table != null ? mapStoreConfig(table, persistence) : null;
        if (store != null) {
            // A pattern's own config is that of its kind of map (state or side output) plus the store;
            // the most specific name wins.
            for (final String pattern : persistence.maps()) {
                final MapConfig base = mapConfigByPrefix.get(prefixOf(pattern));
                final MapConfig persisted = pattern.equals(base.getName()) ? base : new MapConfig(base).setName(pattern);
                persisted.setMapStoreConfig(store);
                config.addMapConfig(persisted);
            }
        }
        // A job's state maps with a TTL: the same settings plus expiry (an exact name beats the pattern).
        settings.stateTtlSecondsByMap().forEach((name, ttl) -> {
            final MapConfig expiring = new MapConfig(stateMaps).setName(name).setTimeToLiveSeconds(ttl);
            if (store != null && config.getConfigPatternMatcher().matches(persistence.maps(), name) != null) {
                expiring.setMapStoreConfig(store);
            }
            config.addMapConfig(expiring);
        });

        // Expiry must keep up with the write rate, or a TTL bounds nothing: by default Hazelcast's
        // background task visits a few partitions every 5 s and scans 10 % of each, and entries of
        // ever-new keys (never read again, so never expired on access) outlived their TTL by
        // minutes (StateBoundSoakTest: 342,375 of 360,000 entries left with a 20 s TTL). Every
        // partition, every entry, every 5 s: a scan of the expirable maps only.
        config.setProperty("hazelcast.internal.map.expiration.cleanup.operation.count", Integer.toString(NodeSettings.PARTITION_COUNT));
        config.setProperty("hazelcast.internal.map.expiration.cleanup.percentage", "100");

        config.getJetConfig().setEnabled(settings.jetEnabled());
        // Job code from clients (jars, classes, files) only when asked for: with it, any client
        // that reaches a member runs code on every member.
        config.getJetConfig().setResourceUploadEnabled(settings.allowCodeUpload());
        config.getSerializationConfig().setJavaSerializationFilterConfig(deserializationFilter(settings));
        if (settings.jetCooperativeThreadCount() > 0) {
            config.getJetConfig().setCooperativeThreadCount(settings.jetCooperativeThreadCount());
        }
        if (persistence.jobs()) {
            persistJetJobMaps(config, table);
        }
        config.getMemberAttributeConfig().setAttribute(DURABLE_JOBS_ATTRIBUTE, Boolean.toString(persistence.jobs()));
        return config;
    }

    /**
     * StreamGrid's Java deserialization filter ({@code ClientSettings.javaDeserializationFilter}
     * with {@code serialization.java-allow}), and unless {@code jobs.allow-io-connectors} the
     * classes of Hazelcast's connectors that reach outside the grid on its deny list. Code upload
     * off keeps a client's own classes out, but a job made only of Hazelcast's classes needs no
     * upload: a file source over the member's disk into a list, a file sink into /etc/cron.d, a
     * socket to any address. Such a job arrives as Java-serialized objects, so refusing these names
     * refuses the job on submission ("Resolving class … is not allowed"). The names are those the
     * connectors' pipelines carry in Hazelcast 5.7 (checked by IoConnectorBoundaryTest on upgrade).
     */
    static JavaSerializationFilterConfig deserializationFilter(final NodeSettings settings) {
        final JavaSerializationFilterConfig filter = ClientSettings.javaDeserializationFilter(
                settings.deserializationAllowed(), "serialization.java-allow");
        if (!settings.allowIoConnectors()) {
            filter.getBlacklist().addPrefixes(IO_CONNECTOR_CLASSES.toArray(String[]::new));
        }
        return filter;
    }

    /** Class-name prefixes of Hazelcast's connectors that read or write outside the grid. */
    static final List<String> IO_CONNECTOR_CLASSES = List.of(
            // files: Sources.files/filesBuilder/fileWatcher, FileSources, Sinks.files
            "com.hazelcast.jet.impl.connector.ReadFilesP", "com.hazelcast.jet.impl.connector.StreamFilesP",
            "com.hazelcast.jet.impl.connector.WriteFileP", "com.hazelcast.jet.pipeline.FileSourceBuilder",
            "com.hazelcast.jet.pipeline.FileSinkBuilder", "com.hazelcast.jet.pipeline.file.",
            // sockets, JDBC, JMS
            "com.hazelcast.jet.impl.connector.StreamSocketP", "com.hazelcast.jet.impl.connector.ReadJdbcP",
            "com.hazelcast.jet.impl.connector.WriteJdbcP", "com.hazelcast.jet.impl.connector.DataSourceFromJdbcUrl",
            "com.hazelcast.jet.pipeline.JdbcSinkBuilder", "com.hazelcast.jet.impl.connector.StreamJmsP",
            "com.hazelcast.jet.impl.connector.WriteJmsP",
            // reading other clusters' maps and caches
            "com.hazelcast.jet.impl.connector.ReadMapOrCacheP$Remote", "com.hazelcast.jet.impl.connector.HazelcastReaders$Remote",
            "com.hazelcast.jet.impl.connector.RemoteMapSourceConfiguration",
            // what Enterprise checks before a connector touches the outside: socket source and sink, file sink and watcher
            "com.hazelcast.security.permission.ConnectorPermission");
}
