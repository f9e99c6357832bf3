package io.streamgrid.cli;

import io.streamgrid.client.ClientSettings;
import io.streamgrid.cluster.DetachedCluster;
import io.streamgrid.cluster.LocalCluster;
import io.streamgrid.cluster.LocalClusterBuilder;
import com.hazelcast.client.HazelcastClient;
import com.hazelcast.client.config.ClientConfig;
import com.hazelcast.core.HazelcastInstance;
import io.streamgrid.cluster.MemberHealth;
import io.streamgrid.cluster.PartitionTable;
import io.streamgrid.node.ConfigException;
import io.streamgrid.node.MemberAddress;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/** {@code streamgrid cluster}: a local cluster of member processes that outlives the command. */
@Command(name = "cluster", mixinStandardHelpOptions = true,
        description = "Start, inspect and stop a cluster of member JVMs on this host.",
        subcommands = {ClusterCommand.Start.class, ClusterCommand.Status.class, ClusterCommand.Stop.class})
final class ClusterCommand {
    static final String DEFAULT_WORK_DIR = ".streamgrid/cluster";

    @Command(name = "start", mixinStandardHelpOptions = true,
            description = "Start N members in the background on 127.0.0.1; returns once the cluster is safe.")
    static final class Start implements java.util.concurrent.Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--members", defaultValue = "3", description = "How many members (default: ${DEFAULT-VALUE}).")
        int count;

        @Option(names = "--base-port", defaultValue = "5701",
                description = "First member port; the others follow (default: ${DEFAULT-VALUE}; 0: random free ports).")
        int basePort;

        @Option(names = "--heap", defaultValue = "512m", description = "Heap per member (default: ${DEFAULT-VALUE}).")
        String heap;

        @Option(names = "--work-dir", defaultValue = DEFAULT_WORK_DIR,
                description = "Member logs, data and the cluster's state file (default: ${DEFAULT-VALUE}).")
        Path workDir;

        /** The members' configuration (persistence, code upload, ingest, ...); its cluster-name names the cluster. */
        @Mixin
        ConfigOptions options;

        @Override
        public Integer call() {
            if (count < 1 || count > 16) {
                throw new ConfigException("--members " + count + " is out of range: start 1 to 16 members");
            }
            final Optional<DetachedCluster> existing = DetachedCluster.load(workDir);
            if (existing.isPresent() && !existing.get().aliveMembers().isEmpty()) {
                throw new ConfigException("a cluster started from " + workDir + " is still running ("
                        + existing.get().aliveMembers().size() + " members): stop it with 'streamgrid cluster stop'");
            }
            final PrintWriter out = spec.commandLine().getOut();
            if (basePort != 0) {
                MemberAddress.checkPort(basePort, "--base-port");
                MemberAddress.checkPort(basePort + count - 1, "--base-port plus --members");
            }
            final String clusterName = options.tree().string("cluster-name"); // also checks the file before anything starts
            final LocalClusterBuilder builder = LocalCluster.builder().members(count).workDir(workDir).memberHeap(heap).basePort(basePort)
                    .clusterName(clusterName).detached().longLivedMembers().progress(out::println);
            if (options.config != null) {
                builder.configFile(options.config);
            }
            final LocalCluster cluster = builder.start();
            DetachedCluster.of(cluster).save(workDir);
            out.println("cluster '" + clusterName + "' running" + (options.config != null ? " with " + options.config : "") + ": "
                    + String.join(", ",
                    cluster.members().stream().map(m -> m.address() + " (pid " + m.pid() + ")").toList()));
            out.println("logs in " + workDir + "; 'streamgrid cluster status' to inspect, 'streamgrid cluster stop' to stop");
            return 0;
        }
    }

    @Command(name = "status", mixinStandardHelpOptions = true,
            description = "Show each member's health: state, cluster size, safety, migrations queued.")
    static final class Status implements java.util.concurrent.Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--work-dir", defaultValue = DEFAULT_WORK_DIR,
                description = "Where 'cluster start' kept its state (default: ${DEFAULT-VALUE}).")
        Path workDir;

        @Option(names = "--member", paramLabel = "HOST:PORT",
                description = "Ask these members instead of the ones started from --work-dir.")
        List<String> memberAddresses;

        @Option(names = "--json", description = "One JSON object, for scripts.")
        boolean json;

        @Option(names = "--cluster-name", paramLabel = "NAME",
                description = "Also connect a client to this cluster and report partitions per member.")
        String clusterName;

        @Override
        public Integer call() {
            final List<MemberAddress> addresses = new ArrayList<>();
            if (memberAddresses != null && !memberAddresses.isEmpty()) {
                memberAddresses.forEach(a -> addresses.add(MemberAddress.parse(a)));
            } else {
                DetachedCluster.load(workDir).ifPresent(c -> c.members().forEach(m -> addresses.add(MemberAddress.parse(m.address()))));
            }
            final PrintWriter out = spec.commandLine().getOut();
            final List<String> jsonMembers = new ArrayList<>();
            int answered = 0;
            boolean safe = !addresses.isEmpty();
            for (final MemberAddress address : addresses) {
                final Optional<MemberHealth> health = MemberHealth.probe(address.host(), address.port());
                answered += health.isPresent() ? 1 : 0;
                safe &= health.map(h -> h.isSafeWith(h.clusterSize())).orElse(false);
                if (json) {
                    jsonMembers.add(health.map(h -> String.format(
                            "{\"address\":\"%s\",\"up\":true,\"nodeState\":\"%s\",\"clusterSize\":%d,\"clusterSafe\":%b,\"migrationQueueSize\":%d}",
                            address, h.nodeState(), h.clusterSize(), h.clusterSafe(), h.migrationQueueSize()))
                            .orElse("{\"address\":\"" + address + "\",\"up\":false}"));
                } else {
                    out.println(address + "  " + health.map(h -> h.nodeState() + " members=" + h.clusterSize()
                            + " safe=" + h.clusterSafe() + " migrations-queued=" + h.migrationQueueSize()).orElse("DOWN (no answer)"));
                }
            }
            final Map<String, Integer> partitions = clusterName != null && answered > 0
                    ? partitionsPerMember(clusterName, addresses) : Map.of();
            if (json) {
                out.println("{\"members\":[" + String.join(",", jsonMembers) + "],\"answered\":" + answered + ",\"safe\":" + safe
                        + ",\"partitions\":{" + partitions.entrySet().stream().map(e -> "\"" + e.getKey() + "\":" + e.getValue())
                        .collect(Collectors.joining(",")) + "}}");
            } else if (addresses.isEmpty()) {
                out.println("no cluster started from " + workDir + " (start one with 'streamgrid cluster start', or name members with --member)");
            }
            if (!json) {
                partitions.forEach((member, count) -> out.println("partitions owned by " + member + ": " + count));
            }
            return answered > 0 ? 0 : StreamGridCli.EXIT_FAILED;
        }

        private static Map<String, Integer> partitionsPerMember(final String clusterName, final List<MemberAddress> addresses) {
            final ClientConfig config = ClientSettings.of(clusterName, addresses.stream().map(MemberAddress::toString).toList())
                    .withConnectTimeout(Duration.ofSeconds(15)).toHazelcastConfig();
            config.setProperty("hazelcast.logging.type", "none"); // --json output must stay clean
            final HazelcastInstance client = HazelcastClient.newHazelcastClient(config);
            try {
                return PartitionTable.countByOwner(client);
            } finally {
                client.shutdown();
            }
        }
    }

    @Command(name = "stop", mixinStandardHelpOptions = true,
            description = {"Stop every member started from --work-dir by PID: SIGTERM (each migrates nothing, writes its pending",
                    "write-behind changes and stops), SIGKILL only to a member still running after the grace period, said",
                    "member by member, with exit code 1."})
    static final class Stop implements java.util.concurrent.Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = "--work-dir", defaultValue = DEFAULT_WORK_DIR,
                description = "Where 'cluster start' kept its state (default: ${DEFAULT-VALUE}).")
        Path workDir;

        @Option(names = "--grace-seconds", paramLabel = "SECONDS",
                description = "Wait before SIGKILL (default: the configuration's shutdown.graceful-max-wait-seconds + 30).")
        Integer graceSeconds;

        @Mixin
        ConfigOptions options;

        @Override
        public Integer call() {
            final PrintWriter out = spec.commandLine().getOut();
            final Optional<DetachedCluster> cluster = DetachedCluster.load(workDir);
            if (cluster.isEmpty()) {
                out.println("no cluster started from " + workDir + ": nothing to stop");
                return 0;
            }
            // As long as the members themselves may take: the graceful shutdown waits up to that for its write-behind flush.
            final int grace = graceSeconds != null ? graceSeconds
                    : options.tree().integer("shutdown.graceful-max-wait-seconds") + 30;
            final List<String> notGraceful = cluster.get().stop(workDir, Duration.ofSeconds(grace), out::println);
            if (!notGraceful.isEmpty()) {
                final PrintWriter err = spec.commandLine().getErr();
                err.println("cluster stopped, but " + notGraceful.size() + " member(s) did not shut down gracefully: "
                        + String.join("; ", notGraceful));
                err.flush();
                return StreamGridCli.EXIT_FAILED;
            }
            out.println("cluster stopped (every member shut down gracefully)");
            return 0;
        }
    }
}
