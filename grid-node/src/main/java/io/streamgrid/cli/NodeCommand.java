package io.streamgrid.cli;

import io.streamgrid.node.GridNode;
import io.streamgrid.node.MemberAddress;
import io.streamgrid.node.NodeSettings;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code streamgrid node}: one grid member in the foreground. */
@Command(name = "node", mixinStandardHelpOptions = true,
        description = {"Run one grid member in the foreground; Ctrl-C or SIGTERM stops it gracefully.",
                "A graceful stop migrates the member's partitions to the others before it exits.",
                "Settings: the defaults in streamgrid-defaults.yaml, then --config, then the flags."})
final class NodeCommand implements Callable<Integer> {
    @Option(names = "--config", paramLabel = "FILE", description = "YAML file overriding the defaults.")
    Path config;

    @Option(names = "--cluster-name", paramLabel = "NAME", description = "Cluster to join.")
    String clusterName;

    @Option(names = "--host", paramLabel = "ADDRESS", description = "Address to bind and advertise.")
    String host;

    @Option(names = "--port", paramLabel = "PORT", description = "Member port, 1-65535.")
    Integer port;

    @Option(names = "--members", paramLabel = "HOST:PORT,...", description = "Members to join (TCP/IP).")
    String members;

    @Option(names = "--data-dir", paramLabel = "DIR", description = "Directory for the member's local files.")
    Path dataDir;

    @Option(names = "--metrics-port", paramLabel = "PORT",
            description = "Port of the Prometheus metrics endpoint (default: member port + 1000).")
    Integer metricsPort;

    @Option(names = "--parent-pid", hidden = true,
            description = "Halt when this process ends (LocalCluster: no orphan members).")
    Long parentPid;

    @Override
    public Integer call() throws InterruptedException {
        final Optional<List<MemberAddress>> memberList = Optional.ofNullable(members)
                .map(text -> Arrays.stream(text.split(",")).map(MemberAddress::parse).toList());
        final NodeSettings settings = NodeSettings.load(Optional.ofNullable(config), new NodeSettings.Overrides(
                Optional.ofNullable(clusterName), Optional.ofNullable(host), Optional.ofNullable(port),
                memberList, Optional.ofNullable(dataDir), Optional.ofNullable(metricsPort)));
        if (parentPid != null) {
            haltWhenGone(parentPid);
        }
        try (GridNode node = GridNode.start(settings)) {
            node.awaitShutdown();
        }
        return 0;
    }

    /** A member of a LocalCluster must not outlive its owner, even one killed with SIGKILL. */
    private static void haltWhenGone(final long pid) {
        final Optional<ProcessHandle> parent = ProcessHandle.of(pid);
        if (parent.isEmpty()) {
            Runtime.getRuntime().halt(3);
        }
        parent.get().onExit().thenRun(() -> {
            System.err.println("owner process " + pid + " is gone: halting this member");
            Runtime.getRuntime().halt(3);
        });
    }
}
