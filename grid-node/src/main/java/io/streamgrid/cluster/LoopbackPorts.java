package io.streamgrid.cluster;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/** Free TCP ports on loopback, where {@link LocalCluster}'s members and the benchmarks' in-process members listen. */
public final class LoopbackPorts {
    static final String HOST = "127.0.0.1";

    private LoopbackPorts() {
    }

    /**
     * A loopback port that is free now, outside the ephemeral range that outgoing connections use:
     * for members started in-process (benchmarks) the same way as for member processes.
     */
    public static int freePort() {
        return freePort(List.of());
    }

    static int freePort(final List<Integer> taken) {
        for (int attempt = 0; attempt < 200; attempt++) {
            final int candidate = ThreadLocalRandom.current().nextInt(20_000, 30_000);
            if (!taken.contains(candidate) && isFree(candidate)) {
                return candidate;
            }
        }
        throw new IllegalStateException("no free TCP port found in 20000-29999 on " + HOST);
    }

    static boolean isFree(final int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getByName(HOST))) {
            socket.setReuseAddress(true);
            return true;
        } catch (final IOException busy) {
            return false;
        }
    }
}
