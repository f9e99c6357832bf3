package io.streamgrid.node;

import io.streamgrid.node.impl.ConfigTree;
import io.streamgrid.node.impl.JobCatalog;
import io.streamgrid.sink.CassandraTarget;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The cassandra section's login and TLS: secrets are named by where they are read, never written in the file. */
class CassandraSettingsTest {
    @TempDir
    Path dir;

    private CassandraTarget target(final String yaml) throws IOException {
        return JobCatalog.cassandraTarget(ConfigTree.load(Optional.of(Files.writeString(dir.resolve("c.yaml"), yaml))));
    }

    @Test
    void when_loginAndTlsAreConfigured_then_theTargetHoldsWhereTheSecretsAreRead() throws IOException {
        final CassandraTarget target = target(String.join("\n", "cassandra:", "  username: streamgrid",
                "  password: env:STREAMGRID_CASSANDRA_PASSWORD", "  tls:", "    enabled: true", "    truststore: /etc/streamgrid/trust.p12",
                "    truststore-password: file:/etc/streamgrid/trust.pass", ""));

        assertThat(target.security().username()).isEqualTo("streamgrid");
        assertThat(target.security().password().source()).isEqualTo("env:STREAMGRID_CASSANDRA_PASSWORD");
        assertThat(target.security().truststore()).isEqualTo("/etc/streamgrid/trust.p12");
        assertThat(target.security().hostnameValidation()).isTrue();
        assertThat(target(String.join("\n", "cassandra:", "  keyspace: plain", "")).security().authenticates()).isFalse();
    }

    @Test
    void when_aPasswordIsWrittenInTheFile_then_refusedNamingTheKeyNotTheValue() throws IOException {
        assertThatThrownBy(() -> target(String.join("\n", "cassandra:", "  username: streamgrid", "  password: s3cret-value", "")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("cassandra.password").hasMessageContaining("env:NAME")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("s3cret-value"));
        assertThatThrownBy(() -> target(String.join("\n", "cassandra:", "  username: streamgrid", "")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("needs a password");
        assertThatThrownBy(() -> target(String.join("\n", "cassandra:", "  tls:", "    enabled: true", "")))
                .isInstanceOf(ConfigException.class).hasMessageContaining("cassandra.tls.truststore");
    }
}
