package io.streamgrid.node;

import com.hazelcast.config.Config;
import com.hazelcast.config.EvictionPolicy;
import com.hazelcast.config.MapConfig;
import com.hazelcast.config.MaxSizePolicy;
import io.streamgrid.node.impl.HazelcastConfigFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every kind of job state has a bound in the member configuration. */
class StateBoundsConfigTest {
    @TempDir
    Path dir;

    @Test
    void when_defaults_then_lateAndRejectedMapsExpireAndAreCappedAndStateIsKept() {
        final Config config = HazelcastConfigFactory.memberConfig(NodeSettings.load(Optional.empty(), NodeSettings.Overrides.none()));

        for (final String map : new String[] {"late.ip-traffic", "rejected.user-sessions"}) {
            final MapConfig side = config.findMapConfig(map);
            assertThat(side.getTimeToLiveSeconds()).as(map + " TTL").isEqualTo(604_800);
            assertThat(side.getEvictionConfig().getEvictionPolicy()).isEqualTo(EvictionPolicy.LRU);
            assertThat(side.getEvictionConfig().getMaxSizePolicy()).isEqualTo(MaxSizePolicy.PER_NODE);
            assertThat(side.getEvictionConfig().getSize()).isEqualTo(1_000_000);
        }
        assertThat(config.findMapConfig("state.ip-traffic").getTimeToLiveSeconds()).isZero();
    }

    @Test
    void when_jobHasStateTtl_then_everyStateMapOfTheJobExpiresAndKeepsStateSettings() throws IOException {
        final Path file = Files.writeString(dir.resolve("c.yaml"),
                "jobs:\n  ip-traffic:\n    state-ttl-seconds: 3600\nside-maps:\n  ttl-seconds: 60\n  max-entries-per-member: 0\n");
        final Config config = HazelcastConfigFactory.memberConfig(NodeSettings.load(Optional.of(file), NodeSettings.Overrides.none()));

        for (final String map : new String[] {"state.ip-traffic", "state.alerts"}) {
            final MapConfig state = config.findMapConfig(map);
            assertThat(state.getTimeToLiveSeconds()).as(map).isEqualTo(3_600);
            assertThat(state.getBackupCount()).as(map + " keeps the state-map backups").isEqualTo(1);
            assertThat(state.getEventJournalConfig().isEnabled()).as(map + " keeps its journal").isTrue();
        }
        assertThat(config.findMapConfig("state.user-sessions").getTimeToLiveSeconds()).isZero();
        assertThat(config.findMapConfig("late.x").getTimeToLiveSeconds()).isEqualTo(60);
        assertThat(config.findMapConfig("late.x").getEvictionConfig().getEvictionPolicy()).as("no size cap")
                .isEqualTo(EvictionPolicy.NONE);
    }

    @Test
    void when_stateTtlIsNegative_then_refusedNamingTheMap() throws IOException {
        final Path file = Files.writeString(dir.resolve("c.yaml"), "jobs:\n  user-sessions:\n    state-ttl-seconds: -5\n");
        assertThatThrownBy(() -> NodeSettings.load(Optional.of(file), NodeSettings.Overrides.none()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("state-ttl-seconds");
    }

    /**
     * A user's jar job or an example names its own state maps; before, only the four built-in jobs
     * could be given a TTL, by job name. Now any state map, by name or pattern.
     */
    @Test
    void when_aStateMapHasATtlByNameOrPattern_then_itExpiresAndTheExactNameWins() throws IOException {
        final Path file = Files.writeString(dir.resolve("c.yaml"), String.join("\n", "state-maps:", "  ttl-seconds:",
                "    state.user-activity: 86400", "    \"state.fraud-*\": 3600", "    state.fraud-scores: 60", ""));
        final Config config = HazelcastConfigFactory.memberConfig(NodeSettings.load(Optional.of(file), NodeSettings.Overrides.none()));

        assertThat(config.findMapConfig("state.user-activity").getTimeToLiveSeconds()).isEqualTo(86_400);
        assertThat(config.findMapConfig("state.fraud-profiles").getTimeToLiveSeconds()).isEqualTo(3_600);
        assertThat(config.findMapConfig("state.fraud-scores").getTimeToLiveSeconds()).isEqualTo(60);
        assertThat(config.findMapConfig("state.fraud-scores").getBackupCount()).as("keeps the state-map backups").isEqualTo(1);
        assertThat(config.findMapConfig("state.positions").getTimeToLiveSeconds()).isZero();
    }

    @Test
    void when_aTtlNamesNoStateMapOrIsNegative_then_refusedNamingIt() throws IOException {
        final Path notState = Files.writeString(dir.resolve("a.yaml"), "state-maps:\n  ttl-seconds:\n    dim.users: 60\n");
        assertThatThrownBy(() -> NodeSettings.load(Optional.of(notState), NodeSettings.Overrides.none()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("state-maps.ttl-seconds").hasMessageContaining("dim.users");
        final Path negative = Files.writeString(dir.resolve("b.yaml"), "state-maps:\n  ttl-seconds:\n    state.x: -1\n");
        assertThatThrownBy(() -> NodeSettings.load(Optional.of(negative), NodeSettings.Overrides.none()))
                .isInstanceOf(ConfigException.class).hasMessageContaining("state.x");
    }
}
