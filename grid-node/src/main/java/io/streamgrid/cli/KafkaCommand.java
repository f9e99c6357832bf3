package io.streamgrid.cli;

import io.streamgrid.jobs.kafka.KafkaBroker;
import io.streamgrid.node.ConfigException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code streamgrid kafka}: a development Kafka broker in the foreground. */
@Command(name = "kafka", mixinStandardHelpOptions = true,
        description = {"Run a development Apache Kafka broker (Kafka 4.x, KRaft, one node, child JVM) until Ctrl-C, which stops it by PID.",
                "Prints its bootstrap servers. For members on several hosts, --host an address they reach.",
                "Data stays in --dir for the next start."})
final class KafkaCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--dir", defaultValue = ".streamgrid/kafka", description = "Data and log directory (default: ${DEFAULT-VALUE}).")
    Path dir;

    @Option(names = "--host", defaultValue = "127.0.0.1", description = "Address to listen on (default: ${DEFAULT-VALUE}).")
    String host;

    @Override
    public Integer call() throws InterruptedException {
        final PrintWriter out = spec.commandLine().getOut();
        final KafkaBroker broker;
        try {
            broker = KafkaBroker.start(dir, host, out::println);
        } catch (final IllegalStateException e) {
            throw new ConfigException(e.getMessage(), e);
        }
        out.println("Kafka ready (pid " + broker.pid() + "): bootstrap servers " + broker.bootstrapServers()
                + "; set ingest.kind: kafka and ingest.kafka.bootstrap-servers: " + broker.bootstrapServers() + ". Ctrl-C stops it.");
        out.flush();
        Foreground.runUntilStopped(broker, "kafka");
        return 0;
    }
}
