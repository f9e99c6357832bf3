package io.streamgrid.cli;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.streamgrid.cluster.AcknowledgedWriter;
import io.streamgrid.client.StreamGridClient;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cluster.PartitionTable;
import io.streamgrid.jobs.pipeline.JobOptions;
import io.streamgrid.sink.CassandraServer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * {@code streamgrid demo}: a 2-member cluster of real processes, state written and read through a
 * client, then a third member joins while a writer keeps writing; partitions per member before and
 * after, and every entry checked against its last acknowledged write. Exit 0 only if nothing was
 * lost. Then the ip-traffic job runs over generated requests ({@link IpTrafficDemo}).
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Start 2 members, write state, add a 3rd member under load (live migration),",
                "then run ip-traffic over generated requests and show alerts as they appear.",
                "The examples' demos (trading, machines, recommendations, fraud, parameter-server, federated) are its",
                "subcommands when the examples jar is on the class path, as the streamgrid launcher puts it."})
final class DemoCommand implements Callable<Integer> {
    static final String MAP = "state.demo";

    @Spec
    CommandSpec spec;

    @Option(names = "--keys", defaultValue = "20000", description = "Entries to write (default: ${DEFAULT-VALUE}).")
    int keys;

    @Option(names = "--requests", defaultValue = "600000",
            description = "Requests the ip-traffic part generates (default: ${DEFAULT-VALUE}).")
    long requests;

    @Option(names = "--work-dir", defaultValue = ".streamgrid/demo",
            description = "Member logs and data (default: ${DEFAULT-VALUE}); emptied first.")
    Path workDir;

    @Override
    public Integer call() throws Exception {
        final PrintWriter out = spec.commandLine().getOut();
        Demos.deleteRecursively(workDir);
        out.println("== StreamGrid demo: live partition migration under load");
        try (LocalCluster cluster = LocalCluster.builder().members(2).workDir(workDir)
                .progress(line -> out.println("   " + line)).start()) {
            final HazelcastInstance client = cluster.newClient();
            final IMap<Integer, Long> map = client.getMap(MAP);

            out.println("== writing " + keys + " entries to " + MAP + " through a client");
            final AcknowledgedWriter writer = new AcknowledgedWriter(map, keys).fill();
            out.println("   read back key 1 -> " + map.get(1) + ", key " + (keys - 1) + " -> " + map.get(keys - 1)
                    + "; size " + map.size());
            printPartitions(out, "partitions per member, 2 members", client);

            out.println("== a writer keeps updating all keys; adding a third member");
            writer.start();
            final long before = writer.writes();
            final long start = System.nanoTime();
            cluster.addMember();
            final Duration migration = Duration.ofNanos(System.nanoTime() - start);
            final long during = writer.writes() - before;
            writer.close();
            out.println("   third member joined and migration finished in " + migration.toMillis() + " ms; "
                    + during + " writes acknowledged meanwhile, " + writer.retries() + " retried");
            printPartitions(out, "partitions per member, 3 members", client);

            final AcknowledgedWriter.Verification verification = writer.verify();
            final int size = map.size();
            out.println("== check: size " + size + " (was " + keys + "); every key holds its last acknowledged write: "
                    + verification);
            if (!verification.isExact() || size != keys) {
                out.println("== demo FAILED: entries were lost or wrong");
                return StreamGridCli.EXIT_FAILED;
            }

            out.println("== starting Apache Cassandra (a child JVM) for the job's exactly-once output");
            final boolean trafficOk;
            try (CassandraServer cassandra = CassandraServer.start(workDir.resolve("cassandra"), line -> out.println("   " + line))) {
                try (StreamGridClient streamGrid = StreamGridClient.connect(cluster.clientSettings())) {
                    trafficOk = new IpTrafficDemo(out, workDir.resolve("ingest"), requests, cassandra).run(streamGrid);
                }
            }
            out.println(trafficOk ? "== demo passed; stopping the cluster" : "== demo FAILED: requests were lost or counted twice");
            return trafficOk ? 0 : StreamGridCli.EXIT_FAILED;
        }
    }

    private static void printPartitions(final PrintWriter out, final String title, final HazelcastInstance client) {
        out.println("   " + title + ":");
        for (final Map.Entry<String, Integer> owner : PartitionTable.countByOwner(client).entrySet()) {
            out.printf("     %-22s %4d%n", owner.getKey(), owner.getValue());
        }
    }
}
