package io.streamgrid.node.impl;

import com.hazelcast.core.HazelcastInstance;
import io.streamgrid.cluster.LoopbackPorts;
import io.streamgrid.jobs.JobTestSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Design of this test: a page in a local browser can reach the status page through DNS rebinding —
 * a name of the attacker's that resolves to 127.0.0.1 — and read {@code status.json}; the request
 * then carries that name as its Host header. Raw HTTP requests (a client library would not let the
 * test set Host) must be refused for such a name and answered for the addresses and names the
 * member is reached by legitimately.
 */
class StatusPageHostTest {
    private static HazelcastInstance member;
    private static MetricsEndpoint endpoint;

    @BeforeAll
    static void start() throws IOException {
        member = JobTestSupport.embeddedMember();
        endpoint = MetricsEndpoint.start(member, "127.0.0.1", LoopbackPorts.freePort(), () -> null);
    }

    @AfterAll
    static void stop() {
        if (endpoint != null) {
            endpoint.close();
        }
        if (member != null) {
            member.shutdown();
        }
    }

    @Test
    void when_theHostHeaderNamesAnotherSite_then_statusJsonIsRefused() throws IOException {
        final String answer = get("/status.json", "rebind.attacker.example:" + endpoint.port());

        assertThat(answer).startsWith("HTTP/1.1 421").contains("not a name of this member");
        assertThat(answer).doesNotContain("\"members\"");
        assertThat(get("/", "rebind.attacker.example")).startsWith("HTTP/1.1 421");
    }

    @Test
    void when_theHostHeaderIsAnAddressOrLocalhost_then_statusJsonIsServed() throws IOException {
        for (final String host : new String[] {"127.0.0.1:" + endpoint.port(), "localhost:" + endpoint.port(), "[::1]:" + endpoint.port()}) {
            assertThat(get("/status.json", host)).as(host).startsWith("HTTP/1.1 200").contains("\"members\"");
        }
    }

    private static String get(final String path, final String host) throws IOException {
        try (Socket socket = new Socket("127.0.0.1", endpoint.port())) {
            socket.setSoTimeout(10_000);
            final OutputStream out = socket.getOutputStream();
            out.write(("GET " + path + " HTTP/1.1\r\nHost: " + host + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            final InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
