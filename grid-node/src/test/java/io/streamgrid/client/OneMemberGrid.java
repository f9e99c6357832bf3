package io.streamgrid.client;

import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.node.GridNode;
import io.streamgrid.node.NodeSettings;
import io.streamgrid.node.impl.HazelcastConfigFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** One member in this JVM and a {@link StreamGridClient} of it, for tests about the client side (not about failure of members). */
final class OneMemberGrid implements AutoCloseable {
    final HazelcastInstance member;
    final StreamGridClient client;
    private final AutoCloseable stop;

    private OneMemberGrid(final HazelcastInstance member, final AutoCloseable stop, final StreamGridClient client) {
        this.member = member;
        this.stop = stop;
        this.client = client;
    }

    /** {@code settings}: extra lines of the member's YAML configuration, e.g. {@code "state-maps: {event-journal-capacity: 271}"}. */
    static OneMemberGrid start(final Path dir, final String... settings) throws IOException {
        final NodeSettings node = settings(dir, settings);
        final GridNode member = GridNode.start(node);
        return connect(member.hazelcast(), member, node);
    }

    /**
     * A member with StreamGrid's configuration but none of its member-side services (no change
     * feeds): a plain Hazelcast member, as a cluster of another make would be.
     */
    static OneMemberGrid startPlainHazelcast(final Path dir, final String... settings) throws IOException {
        final NodeSettings node = settings(dir, settings);
        final HazelcastInstance member = Hazelcast.newHazelcastInstance(HazelcastConfigFactory.memberConfig(node));
        return connect(member, member::shutdown, node);
    }

    private static NodeSettings settings(final Path dir, final String... settings) throws IOException {
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
        return NodeSettings.load(Optional.of(config), NodeSettings.Overrides.none());
    }

    private static OneMemberGrid connect(final HazelcastInstance member, final AutoCloseable stop, final NodeSettings node) {
        try {
            return new OneMemberGrid(member, stop, StreamGridClient.connect(ClientSettings.of(node.clusterName(),
                    List.of(node.address().toString()))));
        } catch (final RuntimeException e) {
            member.shutdown();
            throw e;
        }
    }

    @Override
    public void close() {
        client.close();
        try {
            stop.close();
        } catch (final Exception e) {
            throw new IllegalStateException("the test member did not stop", e);
        }
    }
}
