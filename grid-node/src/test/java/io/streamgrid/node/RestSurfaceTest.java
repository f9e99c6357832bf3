package io.streamgrid.node;

import io.streamgrid.cluster.LoopbackPorts;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** The member port's HTTP surface is the health group only: data and management endpoints are refused (docs/SECURITY.md). */
class RestSurfaceTest {
    @TempDir
    static Path dir;
    private static GridNode node;
    private static String base;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @BeforeAll
    static void start() throws IOException {
        final int port = LoopbackPorts.freePort();
        final Path config = Files.writeString(dir.resolve("member.yaml"), "cluster-name: rest-" + port
                + "\nnetwork: {port: " + port + ", members: ['127.0.0.1:" + port + "']}\ndata-dir: " + dir.resolve("data")
                + "\ningest: {dir: " + dir.resolve("ingest") + "}\n");
        node = GridNode.start(NodeSettings.load(Optional.of(config), NodeSettings.Overrides.none()));
        node.hazelcast().getMap("state.secret").set("k", "v");
        base = "http://127.0.0.1:" + port;
    }

    @AfterAll
    static void stop() {
        if (node != null) {
            node.close();
        }
    }

    private static HttpResponse<String> get(final String path) throws Exception {
        return HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).timeout(Duration.ofSeconds(10)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void when_healthAsked_then_answered() throws Exception {
        assertThat(get("/hazelcast/health").statusCode()).isEqualTo(200);
        assertThat(get("/hazelcast/health").body()).contains("\"clusterSize\":1");
        assertThat(get("/hazelcast/health/ready").statusCode()).isEqualTo(200);
    }

    @Test
    void when_dataOrManagementEndpointsAsked_then_refusedAndNothingRevealed() throws Exception {
        for (final String path : new String[] {"/hazelcast/rest/maps/state.secret/k", "/hazelcast/rest/cluster",
                "/hazelcast/rest/management/cluster/state", "/hazelcast/rest/instance"}) {
            final HttpResponse<String> response;
            try {
                response = get(path);
            } catch (final IOException closedWithoutAnswer) {
                continue; // Hazelcast closes the connection on an endpoint of a disabled group: refused
            }
            assertThat(response.statusCode()).as(path).isIn(403, 404);
            assertThat(response.body()).as(path).isNotEqualTo("v").doesNotContain("Members {");
        }
    }
}
