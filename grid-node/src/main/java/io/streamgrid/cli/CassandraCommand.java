package io.streamgrid.cli;

import io.streamgrid.node.ConfigException;
import io.streamgrid.node.MemberAddress;
import io.streamgrid.sink.CassandraServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code streamgrid cassandra}: a development Cassandra server in the foreground. */
@Command(name = "cassandra", mixinStandardHelpOptions = true,
        description = {"Run a development Apache Cassandra server (cassandra-all, child JVM) on 127.0.0.1",
                "until Ctrl-C, which stops it by PID. Prints its contact point."})
final class CassandraCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = "--dir", defaultValue = ".streamgrid/cassandra", description = "Data and log directory (default: ${DEFAULT-VALUE}).")
    Path dir;

    @Option(names = "--port", defaultValue = "0", paramLabel = "PORT",
            description = "CQL port (default: the one this directory used before, so members' contact points stay right; else a free one).")
    int port;

    @Override
    public Integer call() throws InterruptedException {
        final PrintWriter out = spec.commandLine().getOut();
        if (port != 0) {
            MemberAddress.checkPort(port, "--port");
        }
        final CassandraServer server;
        try {
            server = CassandraServer.start(dir, port, out::println);
        } catch (final IllegalArgumentException portTaken) {
            throw new ConfigException(portTaken.getMessage(), portTaken);
        }
        out.println("Cassandra ready: contact point 127.0.0.1:" + server.nativePort() + ", local datacenter "
                + CassandraServer.LOCAL_DATACENTER + "; set cassandra.contact-points to it. Ctrl-C stops it.");
        Foreground.runUntilStopped(server, "cassandra");
        return 0;
    }
}
