package io.streamgrid.node;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NodeSettingsTest {
    @TempDir
    Path dir;

    @Test
    void when_noFileAndNoOverrides_then_shippedDefaultsApply() {
        final NodeSettings settings = NodeSettings.load(Optional.empty(), NodeSettings.Overrides.none());

        assertThat(settings.clusterName()).isEqualTo("streamgrid");
        assertThat(settings.address()).isEqualTo(new MemberAddress("127.0.0.1", 5701));
        assertThat(settings.members()).containsExactly(new MemberAddress("127.0.0.1", 5701));
        assertThat(settings.backupCount()).isEqualTo(1);
        assertThat(settings.asyncBackupCount()).isZero();
        assertThat(settings.eventJournalCapacity()).isEqualTo(100_000);
        assertThat(settings.jetEnabled()).isTrue();
        assertThat(settings.healthCheckEnabled()).isTrue();
        assertThat(settings.splitBrainProtectionEnabled()).isFalse();
    }

    @Test
    void when_userFileSetsSomeKeys_then_onlyThoseChange() throws IOException {
        final Path file = write("cluster-name: prod\nnetwork:\n  port: 6000\nstate-maps:\n  backup-count: 2\n");

        final NodeSettings settings = NodeSettings.load(Optional.of(file), NodeSettings.Overrides.none());

        assertThat(settings.clusterName()).isEqualTo("prod");
        assertThat(settings.port()).isEqualTo(6000);
        assertThat(settings.host()).isEqualTo("127.0.0.1");
        assertThat(settings.backupCount()).isEqualTo(2);
        assertThat(settings.eventJournalCapacity()).isEqualTo(100_000);
    }

    @Test
    void when_flagsGiven_then_theyWinOverTheFile() throws IOException {
        final Path file = write("cluster-name: from-file\nnetwork:\n  port: 6000\n");
        final NodeSettings.Overrides flags = new NodeSettings.Overrides(Optional.of("from-flag"), Optional.empty(),
                Optional.of(7000), Optional.of(List.of(MemberAddress.parse("10.0.0.1:7000"))), Optional.of(dir), Optional.empty());

        final NodeSettings settings = NodeSettings.load(Optional.of(file), flags);

        assertThat(settings.clusterName()).isEqualTo("from-flag");
        assertThat(settings.port()).isEqualTo(7000);
        assertThat(settings.members()).containsExactly(new MemberAddress("10.0.0.1", 7000));
        assertThat(settings.dataDir()).isEqualTo(dir);
    }

    @Test
    void when_unknownTopLevelKey_then_errorNamesItAndTheKnownKeys() throws IOException {
        final Path file = write("clustr-name: x\n");

        assertThatThrownBy(() -> NodeSettings.load(Optional.of(file), NodeSettings.Overrides.none()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("unknown key 'clustr-name'")
                .hasMessageContaining("cluster-name");
    }

    @Test
    void when_unknownNestedKey_then_errorNamesItsPath() throws IOException {
        final Path file = write("network:\n  prot: 5701\n");

        assertThatThrownBy(() -> NodeSettings.load(Optional.of(file), NodeSettings.Overrides.none()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("unknown key 'network.prot'")
                .hasMessageContaining("port");
    }

    @Test
    void when_portOutOfRange_then_errorNamesPortAndRange() throws IOException {
        final Path file = write("network:\n  port: 70000\n");

        assertThatThrownBy(() -> NodeSettings.load(Optional.of(file), NodeSettings.Overrides.none()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("network.port 70000 is out of range")
                .hasMessageContaining("1 to 65535");
    }

    @Test
    void when_valueHasWrongType_then_errorNamesKeyAndValue() throws IOException {
        final Path file = write("state-maps:\n  backup-count: two\n");

        assertThatThrownBy(() -> NodeSettings.load(Optional.of(file), NodeSettings.Overrides.none()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'state-maps.backup-count' must be a whole number, found: two");
    }

    @Test
    void when_sectionGivenAsScalar_then_errorSaysItMustBeAMapping() throws IOException {
        final Path file = write("network: 5701\n");

        assertThatThrownBy(() -> NodeSettings.load(Optional.of(file), NodeSettings.Overrides.none()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'network' must be a mapping");
    }

    @Test
    void when_memberAddressMalformed_then_errorNamesIt() throws IOException {
        final Path file = write("network:\n  members: [127.0.0.1:5701, localhost]\n");

        assertThatThrownBy(() -> NodeSettings.load(Optional.of(file), NodeSettings.Overrides.none()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("bad member address 'localhost'")
                .hasMessageContaining("host:port");
    }

    @Test
    void when_fileUnreadable_then_errorNamesFile() {
        final Path missing = dir.resolve("missing.yaml");

        assertThatThrownBy(() -> NodeSettings.load(Optional.of(missing), NodeSettings.Overrides.none()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("cannot read config file " + missing);
    }

    @Test
    void when_fileIsNotYaml_then_errorSaysSo() throws IOException {
        final Path file = write("network: [unclosed\n");

        assertThatThrownBy(() -> NodeSettings.load(Optional.of(file), NodeSettings.Overrides.none()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("is not valid YAML")
                .message().doesNotContain("\n");
    }

    @Test
    void when_eventJournalSmallerThanPartitionCount_then_rejected() throws IOException {
        final Path file = write("state-maps:\n  event-journal-capacity: 100\n");

        assertThatThrownBy(() -> NodeSettings.load(Optional.of(file), NodeSettings.Overrides.none()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("state-maps.event-journal-capacity is 100: it must be from 271 up");
    }

    /** The master's prompt notices of committed partition moves are on unless the file turns them off. */
    @Test
    void when_promptMoveNoticesSetOrNot_then_theMigrationListenerIsRegisteredOnlyWhenOn() throws IOException {
        final NodeSettings defaults = NodeSettings.load(Optional.empty(), NodeSettings.Overrides.none());
        assertThat(defaults.promptMoveNotices()).isTrue();
        assertThat(io.streamgrid.node.impl.HazelcastConfigFactory.memberConfig(defaults).getListenerConfigs())
                .anyMatch(listener -> listener.getImplementation() instanceof com.hazelcast.partition.MigrationListener);

        final NodeSettings off = NodeSettings.load(Optional.of(write("migration:\n  prompt-move-notices: false\n")),
                NodeSettings.Overrides.none());
        assertThat(off.promptMoveNotices()).isFalse();
        assertThat(io.streamgrid.node.impl.HazelcastConfigFactory.memberConfig(off).getListenerConfigs())
                .noneMatch(listener -> listener.getImplementation() instanceof com.hazelcast.partition.MigrationListener);
    }

    /**
     * The join wait bounds both Hazelcast waits of a starting member: the one before it accepts joins
     * and the one it asks the listed members for a master (Hazelcast's own default, 5 s, made every
     * cluster start of two simultaneously started members wait 5 s before either became master).
     */
    @Test
    void when_joinWaitSetOrNot_then_theMasterSearchWaitsNoLonger() throws IOException {
        final NodeSettings defaults = NodeSettings.load(Optional.empty(), NodeSettings.Overrides.none());
        final com.hazelcast.config.Config config = io.streamgrid.node.impl.HazelcastConfigFactory.memberConfig(defaults);
        assertThat(config.getProperty("hazelcast.wait.seconds.before.join")).isEqualTo("2");
        assertThat(config.getNetworkConfig().getJoin().getTcpIpConfig().getConnectionTimeoutSeconds()).isEqualTo(2);

        final NodeSettings none = NodeSettings.load(Optional.of(write("network:\n  join-wait-seconds: 0\n")),
                NodeSettings.Overrides.none());
        assertThat(io.streamgrid.node.impl.HazelcastConfigFactory.memberConfig(none).getNetworkConfig().getJoin()
                .getTcpIpConfig().getConnectionTimeoutSeconds()).as("at least a second to hear from the others").isEqualTo(1);
    }

    /** One partition moves at a time unless the file says otherwise, and Hazelcast is told so. */
    @Test
    void when_maxParallelMigrationsSetOrNot_then_hazelcastGetsItAndZeroIsRefused() throws IOException {
        final NodeSettings defaults = NodeSettings.load(Optional.empty(), NodeSettings.Overrides.none());
        assertThat(defaults.maxParallelMigrations()).isEqualTo(1);
        assertThat(io.streamgrid.node.impl.HazelcastConfigFactory.memberConfig(defaults)
                .getProperty("hazelcast.partition.max.parallel.migrations")).isEqualTo("1");

        final NodeSettings four = NodeSettings.load(Optional.of(write("migration:\n  max-parallel-migrations: 4\n")),
                NodeSettings.Overrides.none());
        assertThat(io.streamgrid.node.impl.HazelcastConfigFactory.memberConfig(four)
                .getProperty("hazelcast.partition.max.parallel.migrations")).isEqualTo("4");

        assertThat(io.streamgrid.node.impl.HazelcastConfigFactory.memberConfig(defaults)
                .getProperty("hazelcast.invocation.retry.pause.millis")).as("retry pause cap").isEqualTo("50");
        assertThat(io.streamgrid.node.impl.HazelcastConfigFactory.memberConfig(defaults)
                .getProperty("hazelcast.invocation.max.retry.count")).as("the ~2 minute retry budget kept").isEqualTo("2500");

        final Path zero = write("migration:\n  max-parallel-migrations: 0\n");
        assertThatThrownBy(() -> NodeSettings.load(Optional.of(zero), NodeSettings.Overrides.none()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("migration.max-parallel-migrations is 0");
    }

    /** The member's snapshot entries: automatic by default (no property), else the property the processors read; out of range refused. */
    @Test
    void when_snapshotEntryBytesSetOrNot_then_theMemberPropertyFollowsAndBadValuesAreRefused() throws IOException {
        final NodeSettings defaults = NodeSettings.load(Optional.empty(), NodeSettings.Overrides.none());
        final com.hazelcast.config.Config automatic = io.streamgrid.node.impl.HazelcastConfigFactory.memberConfig(defaults);
        assertThat(automatic.getProperty(io.streamgrid.sink.SnapshotEntries.PROPERTY)).isNull();
        assertThat(io.streamgrid.sink.SnapshotEntries.parse(automatic.getProperty(io.streamgrid.sink.SnapshotEntries.PROPERTY)))
                .isEqualTo(io.streamgrid.sink.SnapshotEntries.defaultMaxBytes());

        final NodeSettings small = NodeSettings.load(Optional.of(write("jobs:\n  snapshot-entry-bytes: 4096\n")),
                NodeSettings.Overrides.none());
        assertThat(io.streamgrid.node.impl.HazelcastConfigFactory.memberConfig(small).getProperty(io.streamgrid.sink.SnapshotEntries.PROPERTY))
                .isEqualTo("4096");

        final Path tiny = write("jobs:\n  snapshot-entry-bytes: 12\n");
        assertThatThrownBy(() -> NodeSettings.load(Optional.of(tiny), NodeSettings.Overrides.none()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("jobs.snapshot-entry-bytes is 12: give 64 to 8388608");
    }

    /** Off by default; on, the persisted patterns get the Cassandra map store with the chosen mode and nothing else does. */
    @Test
    void when_persistenceIsOn_then_persistedStateMapsGetTheMapStoreAsConfigured() throws IOException {
        final NodeSettings defaults = NodeSettings.load(Optional.empty(), NodeSettings.Overrides.none());
        assertThat(defaults.persistence().enabled()).isFalse();
        assertThat(io.streamgrid.node.impl.HazelcastConfigFactory.memberConfig(defaults).getMapConfig("state.x")
                .getMapStoreConfig().isEnabled()).isFalse();

        final NodeSettings behind = NodeSettings.load(Optional.of(write("persistence:\n  enabled: true\n  write-delay-seconds: 3\n")),
                NodeSettings.Overrides.none());
        final com.hazelcast.config.MapStoreConfig store = io.streamgrid.node.impl.HazelcastConfigFactory.memberConfig(behind)
                .getMapConfig("state.positions").getMapStoreConfig();
        assertThat(store.isEnabled()).isTrue();
        assertThat(store.getWriteDelaySeconds()).isEqualTo(3);
        assertThat(store.isWriteCoalescing()).isTrue();
        assertThat(store.getInitialLoadMode()).isEqualTo(com.hazelcast.config.MapStoreConfig.InitialLoadMode.EAGER);

        final NodeSettings through = NodeSettings.load(Optional.of(write("persistence:\n  enabled: true\n  maps: [state.positions*]\n"
                + "  write-mode: write-through\n  initial-load: lazy\n")), NodeSettings.Overrides.none());
        final com.hazelcast.config.Config config = io.streamgrid.node.impl.HazelcastConfigFactory.memberConfig(through);
        assertThat(config.getMapConfig("state.positions.desk1").getMapStoreConfig().getWriteDelaySeconds()).isZero();
        assertThat(config.getMapConfig("state.positions.desk1").getMapStoreConfig().getInitialLoadMode())
                .isEqualTo(com.hazelcast.config.MapStoreConfig.InitialLoadMode.LAZY);
        assertThat(config.getMapConfig("state.alerts").getMapStoreConfig().isEnabled()).isFalse();

        // Side outputs too, keeping their bounds (the rows expire with the map's time to live).
        final NodeSettings side = NodeSettings.load(Optional.of(write("persistence:\n  enabled: true\n  maps: [state.*, late.*]\n")),
                NodeSettings.Overrides.none());
        final com.hazelcast.config.Config sideConfig = io.streamgrid.node.impl.HazelcastConfigFactory.memberConfig(side);
        final com.hazelcast.config.MapConfig late = sideConfig.getMapConfig("late.ip-traffic");
        assertThat(late.getMapStoreConfig().isEnabled()).isTrue();
        assertThat(late.getTimeToLiveSeconds()).isEqualTo(side.sideMapTtlSeconds()).isPositive();
        assertThat(late.getEventJournalConfig().isEnabled()).as("a side output is not a state map").isFalse();
        assertThat(sideConfig.getMapConfig("rejected.ip-traffic").getMapStoreConfig().isEnabled()).isFalse();
    }

    /** Jet's job maps get a write-through, eagerly loaded store only with persistence.jobs, and keep Jet's own settings. */
    @Test
    void when_jobsArePersisted_then_jetsJobMapsGetAWriteThroughStoreAndJetsOwnSettings() throws IOException {
        final NodeSettings stateOnly = NodeSettings.load(Optional.of(write("persistence:\n  enabled: true\n")), NodeSettings.Overrides.none());
        assertThat(stateOnly.persistence().jobs()).isFalse();
        assertThat(io.streamgrid.node.impl.HazelcastConfigFactory.memberConfig(stateOnly).getMapConfig("__jet.records")
                .getMapStoreConfig().isEnabled()).isFalse();

        final NodeSettings jobs = NodeSettings.load(Optional.of(write("persistence:\n  enabled: true\n  jobs: true\n")),
                NodeSettings.Overrides.none());
        final com.hazelcast.config.Config config = io.streamgrid.node.impl.HazelcastConfigFactory.memberConfig(jobs);
        for (final String name : List.of("__jet.records", "__jet.executionRecords", "__jet.snapshot.0e5c-1a2b-0000-0001.1",
                "__jet.exportedSnapshot.ip-traffic", "__jet.resources.0e5c-1a2b-0000-0001")) {
            final com.hazelcast.config.MapConfig map = config.getMapConfig(name);
            assertThat(map.getMapStoreConfig().isEnabled()).as(name).isTrue();
            assertThat(map.getMapStoreConfig().getWriteDelaySeconds()).as(name).isZero();
            assertThat(map.getMapStoreConfig().getInitialLoadMode()).as(name).isEqualTo(com.hazelcast.config.MapStoreConfig.InitialLoadMode.EAGER);
            assertThat(map.getBackupCount()).as(name).isEqualTo(config.getJetConfig().getBackupCount());
            assertThat(map.getMergePolicyConfig().getPolicy()).as(name).endsWith("DiscardMergePolicy");
        }
        // Finished jobs' results and metrics stay Jet's, in memory.
        assertThat(config.getMapConfig("__jet.results").getMapStoreConfig().isEnabled()).isFalse();

        final Path noState = write("persistence:\n  jobs: true\n");
        assertThatThrownBy(() -> NodeSettings.load(Optional.of(noState), NodeSettings.Overrides.none()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("persistence.jobs is true but persistence.enabled is false");
    }

    @Test
    void when_persistenceSettingIsInvalid_then_errorNamesItAndWhatIsAllowed() throws IOException {
        final Path mode = write("persistence:\n  write-mode: sometimes\n");
        assertThatThrownBy(() -> NodeSettings.load(Optional.of(mode), NodeSettings.Overrides.none()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("persistence.write-mode is 'sometimes': choose one of write-through, write-behind");
        final Path map = write("persistence:\n  maps: [positions.*]\n");
        assertThatThrownBy(() -> NodeSettings.load(Optional.of(map), NodeSettings.Overrides.none()))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("'positions.*' is not a state map or side output name or pattern");
        final Path delay = write("persistence:\n  write-delay-seconds: 0\n");
        assertThatThrownBy(() -> NodeSettings.load(Optional.of(delay), NodeSettings.Overrides.none()))
                .hasMessageContaining("persistence.write-delay-seconds is 0")
                .hasMessageContaining("write-through");
        final Path table = write("persistence:\n  table: State-Entries\n");
        assertThatThrownBy(() -> NodeSettings.load(Optional.of(table), NodeSettings.Overrides.none()))
                .hasMessageContaining("persistence.table is 'State-Entries'");
    }

    @Test
    void when_emptyFile_then_defaultsApply() throws IOException {
        final Path file = write("");

        assertThat(NodeSettings.load(Optional.of(file), NodeSettings.Overrides.none()).port()).isEqualTo(5701);
    }

    @Test
    void when_metricsPortIsLeftAtZero_then_itIsTheMemberPortPlus1000AndClashesAreRefused() throws IOException {
        assertThat(NodeSettings.load(Optional.empty(), NodeSettings.Overrides.none()).metricsPortResolved()).isEqualTo(6701);
        assertThat(NodeSettings.load(Optional.of(write("metrics:\n  port: 9100\n")), NodeSettings.Overrides.none())
                .metricsPortResolved()).isEqualTo(9100);
        assertThatThrownBy(() -> NodeSettings.load(Optional.of(write("network:\n  port: 65000\n")), NodeSettings.Overrides.none()))
                .hasMessageContaining("metrics.port is 0, which means the member port + 1000 = 66000");
        assertThat(NodeSettings.load(Optional.of(write("network:\n  port: 65000\nmetrics:\n  enabled: false\n")),
                NodeSettings.Overrides.none()).metricsEnabled()).isFalse();
        assertThatThrownBy(() -> NodeSettings.load(Optional.of(write("metrics:\n  port: 5701\n")), NodeSettings.Overrides.none()))
                .hasMessageContaining("metrics.port 5701 is the member port");
    }

    @Test
    void when_retentionAndDeserializationAreSet_then_theyAreReadAndBadValuesAreRefusedNamingTheKey() throws IOException {
        final NodeSettings defaults = NodeSettings.load(Optional.empty(), NodeSettings.Overrides.none());
        assertThat(defaults.ingestRetention().deletesAnything()).as("logs kept by default").isFalse();
        assertThat(defaults.deserializationAllowed()).isEmpty();
        assertThat(defaults.allowIoConnectors()).isFalse();

        final NodeSettings set = NodeSettings.load(Optional.of(write("ingest:\n  retention:\n    days: 7\n    max-mib-per-log: 512\n"
                + "serialization:\n  java-allow: [com.acme., org.example.Position]\n")), NodeSettings.Overrides.none());
        assertThat(set.ingestRetention()).isEqualTo(new io.streamgrid.jobs.ingest.LogRetention.Rule(7, 512L * 1024 * 1024));
        assertThat(set.deserializationAllowed()).containsExactly("com.acme.", "org.example.Position");

        final Path negative = write("ingest:\n  retention:\n    days: -1\n");
        assertThatThrownBy(() -> NodeSettings.load(Optional.of(negative), NodeSettings.Overrides.none()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("ingest.retention.days is -1");
        final Path badPrefix = write("serialization:\n  java-allow: ['com acme']\n");
        assertThatThrownBy(() -> NodeSettings.load(Optional.of(badPrefix), NodeSettings.Overrides.none()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("serialization.java-allow lists 'com acme'");
    }

    private Path write(final String yaml) throws IOException {
        final Path file = dir.resolve("node.yaml");
        Files.writeString(file, yaml);
        return file;
    }
}
