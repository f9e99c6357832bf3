package io.streamgrid.node.impl;

import com.hazelcast.core.HazelcastInstance;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.io.IOException;
import java.util.function.Supplier;

/**
 * A member's HTTP endpoint for people and monitoring: the live status page at {@code /}
 * ({@link StatusPage}), readiness at {@code GET /ready} (200 once the member can serve its persisted
 * state and resume jobs, 503 naming what it waits for) and {@code GET /metrics} in Prometheus text format: {@link MemberMetrics} (jobs, sinks,
 * maps, partitions, cluster) and the JVM's (memory, GC, threads, from the Prometheus client's JVM
 * instrumentation). Why the Prometheus Java client and not Micrometer: we only need the
 * exposition, and Micrometer's Prometheus registry is a layer over this same client.
 *
 * <p>Served by the client's small HTTP server (JDK {@code com.sun.net.httpserver}) on its own
 * port and threads, bound to {@code metrics.host} (loopback by default): read-only, no
 * authentication (docs/SECURITY.md says what it reveals).
 */
public final class MetricsEndpoint implements AutoCloseable {
    private final HTTPServer server;

    private MetricsEndpoint(final HTTPServer server) {
        this.server = server;
    }

    /**
     * Serves the member's metrics on {@code host:port}. {@code waitingFor} says what the member's
     * persisted state still waits for, null once loaded.
     *
     * @throws IOException when the port cannot be bound
     */
    public static MetricsEndpoint start(final HazelcastInstance member, final String host, final int port,
                                        final Supplier<String> waitingFor) throws IOException {
        final PrometheusRegistry registry = new PrometheusRegistry();
        JvmMetrics.builder().register(registry);
        registry.register(new MemberMetrics(member));
        return new MetricsEndpoint(HTTPServer.builder().hostname(host).port(port).registry(registry)
                .defaultHandler(new StatusPage(member, host, waitingFor)).buildAndStart());
    }

    public int port() {
        return server.getPort();
    }

    @Override
    public void close() {
        server.close();
    }
}
