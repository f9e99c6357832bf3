package io.streamgrid.sink;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** A Cassandra directory started before keeps its ports: they are read back from the cassandra.yaml written there. */
class CassandraServerPortsTest {
    @TempDir
    Path dir;

    @Test
    void when_aDirectoryWasStartedBefore_then_itsPortsAreReadBack() throws IOException {
        Files.writeString(dir.resolve("cassandra.yaml"), String.join("\n", "cluster_name: streamgrid", "seed_provider:",
                "  - class_name: org.apache.cassandra.locator.SimpleSeedProvider", "storage_port: 30123",
                "native_transport_port: 31045", "start_native_transport: true", ""));

        assertThat(CassandraServer.earlierPorts(dir)).containsExactly(30123, 31045);
    }

    @Test
    void when_noOrAForeignCassandraYaml_then_noEarlierPorts() throws IOException {
        assertThat(CassandraServer.earlierPorts(dir)).isNull();
        Files.writeString(dir.resolve("cassandra.yaml"), "native_transport_port: ${PORT}\n");
        assertThat(CassandraServer.earlierPorts(dir)).isNull();
    }
}
