package io.streamgrid.cluster;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one member's health endpoint ({@code GET /hazelcast/health}) reports.
 *
 * @param nodeState          ACTIVE once the member serves, other values while it starts or stops
 * @param clusterSafe        every partition's owner and backups are in sync
 * @param migrationQueueSize partition migrations still queued on this member
 * @param clusterSize        members this member sees
 */
public record MemberHealth(String nodeState, boolean clusterSafe, int migrationQueueSize, int clusterSize) {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final Pattern FIELD = Pattern.compile("\"(\\w+)\"\\s*:\\s*\"?([\\w.-]+)\"?");

    /** True when this member is active, sees {@code expectedMembers} and nothing is migrating. */
    public boolean isSafeWith(final int expectedMembers) {
        return "ACTIVE".equals(nodeState) && clusterSafe && migrationQueueSize == 0 && clusterSize == expectedMembers;
    }

    /**
     * Asks the member at {@code host:port}; empty when it does not answer (not started yet, dead,
     * or health check disabled). Never throws for an unreachable member.
     */
    public static Optional<MemberHealth> probe(final String host, final int port) {
        return get(host, port, "/hazelcast/health").filter(response -> response.statusCode() == 200)
                .map(response -> parse(response.body()));
    }

    /**
     * Asks StreamGrid's readiness endpoint of a member ({@code GET /ready} on its metrics port):
     * null when the member is ready — its persisted state loaded, jobs able to resume — else why
     * not (what it waits for, or that it does not answer). Hazelcast's {@code /hazelcast/health}
     * says ACTIVE and safe before that. Never throws for an unreachable member.
     */
    public static String notReady(final String host, final int metricsPort) {
        final Optional<HttpResponse<String>> response = get(host, metricsPort, "/ready");
        if (response.isEmpty()) {
            return "no answer on " + host + ":" + metricsPort + "/ready";
        }
        return response.get().statusCode() == 200 ? null : response.get().body().strip();
    }

    /** {@code GET path} of {@code host:port} within 3 s; empty when nothing answers (not listening yet, or any more). */
    private static Optional<HttpResponse<String>> get(final String host, final int port, final String path) {
        final HttpRequest request = HttpRequest.newBuilder(URI.create("http://" + host + ":" + port + path))
                .timeout(Duration.ofSeconds(3)).GET().build();
        try {
            return Optional.of(HTTP.send(request, HttpResponse.BodyHandlers.ofString()));
        } catch (final IOException e) {
            return Optional.empty();
        } catch (final InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    static MemberHealth parse(final String json) {
        String nodeState = "UNKNOWN";
        boolean clusterSafe = false;
        int migrationQueueSize = -1;
        int clusterSize = 0;
        final Matcher m = FIELD.matcher(json);
        while (m.find()) {
            switch (m.group(1)) {
                case "nodeState" -> nodeState = m.group(2);
                case "clusterSafe" -> clusterSafe = Boolean.parseBoolean(m.group(2));
                case "migrationQueueSize" -> migrationQueueSize = Integer.parseInt(m.group(2));
                case "clusterSize" -> clusterSize = Integer.parseInt(m.group(2));
                default -> { } // other fields are not needed
            }
        }
        return new MemberHealth(nodeState, clusterSafe, migrationQueueSize, clusterSize);
    }
}
