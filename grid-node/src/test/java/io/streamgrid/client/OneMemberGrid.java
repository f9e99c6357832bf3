package io.streamgrid.client;

import io.streamgrid.cluster.LoopbackPorts;
import io.streamgrid.node.GridNode;
import io.streamgrid.node.NodeSettings;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** One member in this JVM and a {@link StreamGridClient} of it, for tests about the client side (not about failure of members). */
public final class OneMemberGrid implements AutoCloseable {
    public final GridNode node;
    public final StreamGridClient client;
    /** The member's YAML: cluster name and address, usable as a CLI command's {@code --config}. */
    public final Path config;

    private OneMemberGrid(final GridNode node, final StreamGridClient client, final Path config) {
        this.node = node;
        this.client = client;
        this.config = config;
    }

    /** {@code settings}: extra lines of the member's YAML configuration, e.g. {@code "state-maps: {event-journal-capacity: 271}"}. */
    public static OneMemberGrid start(final Path dir, final String... settings) throws IOException {
        final int port = LoopbackPorts.freePort();
        final String cluster = "one-member-" + port;
        final List<String> lines = new ArrayList<>(List.of(
                "cluster-name: " + cluster,
                "network: {port: " + port + ", members: ['127.0.0.1:" + port + "']}",
                "data-dir: " + dir.resolve("data"),
                "ingest: {dir: " + dir.resolve("ingest") + "}"));
        lines.addAll(List.of(settings));
        lines.add("");
        final Path config = Files.writeString(dir.resolve("node.yaml"), String.join("\n", lines));
        final GridNode node = GridNode.start(NodeSettings.load(Optional.of(config), NodeSettings.Overrides.none()));
        try {
            return new OneMemberGrid(node, StreamGridClient.connect(ClientSettings.of(cluster, List.of("127.0.0.1:" + port))), config);
        } catch (final RuntimeException e) {
            node.close();
            throw e;
        }
    }

    @Override
    public void close() {
        client.close();
        node.close();
    }
}
