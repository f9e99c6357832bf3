package io.streamgrid.node.impl;

import com.hazelcast.core.HazelcastInstance;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import io.prometheus.metrics.config.EscapingScheme;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.instrumentation.jvm.JvmMetrics;
import io.prometheus.metrics.model.registry.PrometheusRegistry;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * A member's HTTP endpoint for people and monitoring: the live status page at {@code /}
 * ({@link StatusPage}), readiness at {@code GET /ready} (200 once the member can serve its persisted
 * state and resume jobs, 503 naming what it waits for) and {@code GET /metrics} in Prometheus text
 * format: {@link MemberMetrics} (jobs, sinks, maps, partitions, cluster) first, then the JVM's
 * (memory, GC, threads, from the Prometheus client's JVM instrumentation) — a person reading the
 * page finds StreamGrid's series at the top, not after fifty {@code jvm_*} ones (the client sorts a
 * registry's families by name, so the two live in registries of their own). Why the Prometheus Java
 * client and not Micrometer: we only need the exposition, and Micrometer's Prometheus registry is a
 * layer over this same client.
 *
 * <p>Served by the JDK's {@code com.sun.net.httpserver} on its own port and two daemon threads,
 * bound to {@code metrics.host} (loopback by default): read-only, no authentication
 * (docs/SECURITY.md says what it reveals).
 */
public final class MetricsEndpoint implements AutoCloseable {
    private final HttpServer server;
    private final ExecutorService threads;

    private MetricsEndpoint(final HttpServer server, final ExecutorService threads) {
        this.server = server;
        this.threads = threads;
    }

    /**
     * Serves the member's metrics on {@code host:port}. {@code waitingFor} says what the member's
     * persisted state still waits for, null once loaded.
     *
     * @throws IOException when the port cannot be bound
     */
    public static MetricsEndpoint start(final HazelcastInstance member, final String host, final int port,
                                        final Supplier<String> waitingFor) throws IOException {
        final PrometheusRegistry ours = new PrometheusRegistry();
        ours.register(new MemberMetrics(member));
        final PrometheusRegistry jvm = new PrometheusRegistry();
        JvmMetrics.builder().register(jvm);
        final HttpServer server = HttpServer.create(new InetSocketAddress(host, port), 16);
        server.createContext("/", new StatusPage(member, host, waitingFor));
        server.createContext("/metrics", new MetricsText(ours, jvm));
        final ExecutorService threads = Executors.newFixedThreadPool(2, task -> {
            final Thread thread = new Thread(task, "streamgrid-http");
            thread.setDaemon(true);
            return thread;
        });
        server.setExecutor(threads);
        server.start();
        return new MetricsEndpoint(server, threads);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    @Override
    public void close() {
        server.stop(0);
        threads.shutdownNow();
    }

    /** {@code GET /metrics}: each registry's families in turn, in the Prometheus text format (0.0.4). */
    private record MetricsText(PrometheusRegistry first, PrometheusRegistry then) implements HttpHandler {
        private static final PrometheusTextFormatWriter WRITER = PrometheusTextFormatWriter.create();

        @Override
        public void handle(final HttpExchange exchange) throws IOException {
            try (exchange) {
                final ByteArrayOutputStream body = new ByteArrayOutputStream(16_384);
                WRITER.write(body, first.scrape(), EscapingScheme.DEFAULT);
                WRITER.write(body, then.scrape(), EscapingScheme.DEFAULT);
                exchange.getResponseHeaders().set("Content-Type", WRITER.getContentType());
                final boolean head = "HEAD".equals(exchange.getRequestMethod());
                exchange.sendResponseHeaders(200, head ? -1 : body.size());
                if (!head) {
                    try (OutputStream out = exchange.getResponseBody()) {
                        body.writeTo(out);
                    }
                }
            }
        }
    }
}
