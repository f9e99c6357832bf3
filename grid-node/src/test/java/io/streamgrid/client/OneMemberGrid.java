package io.streamgrid.client;

import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.node.GridNode;
import io.streamgrid.node.NodeSettings;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** One member in this JVM and a {@link StreamGridClient} of it, for tests about the client side (not about failure of members). */
final class OneMemberGrid implements AutoCloseable {
    final GridNode node;
    final StreamGridClient client;

    private OneMemberGrid(final GridNode node, final StreamGridClient client) {
        this.node = node;
        this.client = client;
    }

    /** {@code settings}: extra lines of the member's YAML configuration, e.g. {@code "state-maps: {event-journal-capacity: 271}"}. */
    static OneMemberGrid start(final Path dir, final String... settings) throws IOException {
        final int port = LocalCluster.freePort();
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
            return new OneMemberGrid(node, StreamGridClient.connect(ClientSettings.of(cluster, List.of("127.0.0.1:" + port))));
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
