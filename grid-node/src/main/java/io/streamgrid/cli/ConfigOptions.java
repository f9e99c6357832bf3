package io.streamgrid.cli;

import io.streamgrid.node.impl.ConfigTree;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.Optional;

/** {@code --config}, shared by every command that reads the configuration (picocli mixin). */
final class ConfigOptions {
    @Option(names = "--config", paramLabel = "FILE", description = "YAML overriding the defaults (cluster, ingest, jobs, cassandra).")
    Path config;

    ConfigTree tree() {
        return ConfigTree.load(Optional.ofNullable(config));
    }

    /** {@code --member}, shared by the commands that connect a client (picocli mixin). */
    static final class Members {
        @Option(names = "--member", paramLabel = "HOST:PORT", description = "Members to connect to (default: network.members).")
        java.util.List<String> addresses;
    }
}
