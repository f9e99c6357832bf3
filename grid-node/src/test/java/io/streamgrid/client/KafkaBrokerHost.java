package io.streamgrid.client;

import io.streamgrid.jobs.kafka.KafkaBroker;

import java.nio.file.Path;

/**
 * A Kafka broker's host for multi-host tests: runs {@link KafkaBroker} on a given address (this
 * JVM is started inside the broker's network namespace, so the broker's JVM is too) and, when the
 * broker process dies (a test kills it by the PID printed here), starts it again on the same data
 * and port after a pause — as an operator's supervisor would. Prints "bootstrap host:port" and
 * "broker pid N" for the test.
 *
 * <p>Arguments: data directory, listen address, milliseconds the broker stays down after dying.
 */
public final class KafkaBrokerHost {
    private KafkaBrokerHost() {
    }

    public static void main(final String[] args) throws Exception {
        final long downMillis = Long.parseLong(args[2]);
        try (KafkaBroker broker = KafkaBroker.start(Path.of(args[0]), args[1], System.out::println)) {
            System.out.println("bootstrap " + broker.bootstrapServers());
            System.out.println("broker pid " + broker.pid());
            while (true) {
                Thread.sleep(200);
                if (!broker.isRunning()) {
                    System.out.println("the broker died; starting it again in " + downMillis + " ms");
                    Thread.sleep(downMillis);
                    broker.start();
                    System.out.println("broker pid " + broker.pid());
                }
            }
        }
    }
}
