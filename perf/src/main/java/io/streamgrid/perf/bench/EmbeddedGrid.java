package io.streamgrid.perf.bench;

import io.streamgrid.client.ClientSettings;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cluster.LoopbackPorts;
import io.streamgrid.node.GridNode;
import io.streamgrid.node.MemberAddress;
import io.streamgrid.node.NodeSettings;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * A one-member StreamGrid cluster inside the benchmark's JVM, configured from the same defaults
 * YAML as a deployed member (state maps with synchronous backup and event journal, Jet on), on a
 * free loopback port. For benchmarks about the in-process paths; failure and scale benchmarks use
 * {@link LocalCluster}'s member processes instead.
 */
public final class EmbeddedGrid implements AutoCloseable {
    private final GridNode node;
    private final ClientSettings clientSettings;

    private EmbeddedGrid(final GridNode node, final ClientSettings clientSettings) {
        this.node = node;
        this.clientSettings = clientSettings;
    }

    public static EmbeddedGrid start(final Path dataDir) {
        return start(dataDir, Optional.empty());
    }

    /** A member whose settings are {@code configFile} over the defaults (as {@code streamgrid node --config}). */
    public static EmbeddedGrid start(final Path dataDir, final Optional<Path> configFile) {
        final int port = LoopbackPorts.freePort();
        final String cluster = "bench-" + UUID.randomUUID().toString().substring(0, 8);
        final MemberAddress address = new MemberAddress("127.0.0.1", port);
        int metricsPort;
        do {
            metricsPort = LoopbackPorts.freePort();
        } while (metricsPort == port);
        final NodeSettings settings = NodeSettings.load(configFile, new NodeSettings.Overrides(Optional.of(cluster),
                Optional.of(address.host()), Optional.of(port), Optional.of(List.of(address)), Optional.of(dataDir),
                Optional.of(metricsPort)));
        return new EmbeddedGrid(GridNode.start(settings), ClientSettings.of(cluster, List.of(address.host() + ":" + port)));
    }

    public com.hazelcast.core.HazelcastInstance member() {
        return node.hazelcast();
    }

    /** Settings for clients of this member (no near caches). */
    public ClientSettings clientSettings() {
        return clientSettings;
    }

    @Override
    public void close() {
        node.close();
    }
}
