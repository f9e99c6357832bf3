package io.streamgrid.node;

import io.streamgrid.jobs.pipeline.WindowedJob;
import io.streamgrid.jobs.usecase.IpTrafficJob;
import io.streamgrid.jobs.window.WindowDefinition;
import io.streamgrid.node.impl.ConfigTree;
import io.streamgrid.node.impl.JobCatalog;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JobCatalogTest {
    @TempDir
    Path dir;

    @Test
    void when_defaultsLoaded_then_everyNamedJobBuilds() {
        final ConfigTree defaults = ConfigTree.load(Optional.empty());
        for (final String name : JobCatalog.NAMES) {
            final WindowedJob<?> job = JobCatalog.job(name, defaults);
            assertThat(job.name()).isEqualTo(name);
            assertThat(job.stateMap()).isEqualTo("state." + name);
        }
        final IpTrafficJob ipTraffic = (IpTrafficJob) JobCatalog.job(IpTrafficJob.NAME, defaults);
        assertThat(ipTraffic.policy().window()).isEqualTo(WindowDefinition.tumbling(60_000));
        assertThat(ipTraffic.alertFactor()).isEqualTo(3.0);
        assertThat(JobCatalog.options(defaults).snapshotIntervalMs()).isEqualTo(1_000);
    }

    @Test
    void when_userFileOverridesAJob_then_itTakesEffect() throws IOException {
        final Path file = dir.resolve("jobs.yaml");
        Files.writeString(file, "jobs:\n  ip-traffic:\n    window-ms: 10000\n    alert-factor: 5\n");

        final IpTrafficJob job = (IpTrafficJob) JobCatalog.job(IpTrafficJob.NAME, ConfigTree.load(Optional.of(file)));

        assertThat(job.policy().window()).isEqualTo(WindowDefinition.tumbling(10_000));
        assertThat(job.alertFactor()).isEqualTo(5.0);
    }

    @Test
    void when_jobSettingInvalid_then_errorNamesTheJob() throws IOException {
        final Path file = dir.resolve("jobs.yaml");
        Files.writeString(file, "jobs:\n  machine-health:\n    slide-ms: 30000\n");

        assertThatThrownBy(() -> JobCatalog.job("machine-health", ConfigTree.load(Optional.of(file))))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("invalid settings under 'jobs.machine-health'")
                .hasMessageContaining("1-minute slide");
    }

    @Test
    void when_unknownJobOrKey_then_errorsNameThem() throws IOException {
        assertThatThrownBy(() -> JobCatalog.job("ip-trafic", ConfigTree.load(Optional.empty())))
                .isInstanceOf(ConfigException.class).hasMessageContaining("unknown job 'ip-trafic'").hasMessageContaining("ip-traffic");
        final Path file = dir.resolve("jobs.yaml");
        Files.writeString(file, "jobs:\n  ip-traffic:\n    window: 10000\n");
        assertThatThrownBy(() -> ConfigTree.load(Optional.of(file)))
                .isInstanceOf(ConfigException.class).hasMessageContaining("unknown key 'jobs.ip-traffic.window'");
    }
}
