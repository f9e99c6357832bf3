package io.streamgrid.examples.cli;

import io.streamgrid.cli.StreamGridCli;
import io.streamgrid.cli.ConnectedCommand;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.streamgrid.examples.fraud.ModelVersion;
import io.streamgrid.examples.fraud.Payments;
import io.streamgrid.node.ConfigException;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code streamgrid model list|activate|latest}: the versions a training job published
 * ({@code dim.model-versions}) and which one scores ({@code dim.model-pins}: a pinned version, else
 * the newest in {@code dim.models}). A pin takes effect within milliseconds — the scoring job reads
 * the pins from its member's replica for every payment — and holds until {@code latest}.
 */
@Command(name = "model", mixinStandardHelpOptions = true,
        description = "List a model's published versions, pin one for scoring (rollback), or follow the newest again.",
        subcommands = {ModelCommand.ListVersions.class, ModelCommand.Activate.class, ModelCommand.Latest.class})
public final class ModelCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return StreamGridCli.EXIT_USAGE;
    }

    /** The connection and model name the subcommands share. */
    abstract static class ModelArgument extends ConnectedCommand {
        @Parameters(index = "0", paramLabel = "NAME", description = "The model, e.g. fraud.")
        String model;

        /** The versions of the model kept, oldest first. */
        List<ModelVersion> versions(final HazelcastInstance client) {
            final IMap<String, ModelVersion> kept = client.getMap(Payments.MODEL_VERSIONS);
            return kept.values().stream().filter(v -> v.model().equals(model)).sorted(Comparator.comparingLong(ModelVersion::version))
                    .toList();
        }
    }

    @Command(name = "list", mixinStandardHelpOptions = true,
            description = "The versions kept of a model: labels learnt, when published (event time), which one scores (*).")
    static final class ListVersions extends ModelArgument implements Callable<Integer> {
        @Override
        public Integer call() {
            return withClient(client -> {
                final List<ModelVersion> versions = versions(client);
                final PrintWriter out = spec.commandLine().getOut();
                if (versions.isEmpty()) {
                    spec.commandLine().getErr().println("streamgrid: model " + model + " has no published versions in "
                            + Payments.MODEL_VERSIONS + " (is its training job running, and has it learnt enough labels?)");
                    return StreamGridCli.EXIT_FAILED;
                }
                final Long pinned = client.<String, Long>getMap(Payments.MODEL_PINS).get(model);
                final long scoring = pinned != null ? pinned : versions.get(versions.size() - 1).version();
                out.printf("%-2s %8s %10s  %s%n", "", "VERSION", "LABELS", "PUBLISHED (event time)");
                for (final ModelVersion v : versions) {
                    out.printf("%-2s %8d %10d  %s%n", v.version() == scoring ? "*" : "", v.version(), v.labels(),
                            Instant.ofEpochMilli(v.publishedAt()));
                }
                out.println(pinned == null ? "* scoring follows the newest version" : "* pinned: scoring uses version " + pinned
                        + " (`model latest " + model + "` follows the newest again)");
                return 0;
            });
        }
    }

    @Command(name = "activate", mixinStandardHelpOptions = true,
            description = "Pin a kept version for scoring (a rollback) until `model latest`.")
    static final class Activate extends ModelArgument implements Callable<Integer> {
        @Parameters(index = "1", paramLabel = "VERSION", description = "A version `model list` shows.")
        long version;

        @Override
        public Integer call() {
            return withClient(client -> {
                if (client.getMap(Payments.MODEL_VERSIONS).get(Payments.versionKey(model, version)) == null) {
                    final List<Long> kept = versions(client).stream().map(ModelVersion::version).toList();
                    throw new ConfigException("model " + model + " has no version " + version + " kept; kept versions: "
                            + (kept.isEmpty() ? "none" : kept.get(0) + ".." + kept.get(kept.size() - 1)));
                }
                client.getMap(Payments.MODEL_PINS).put(model, version);
                spec.commandLine().getOut().println("model " + model + ": scoring uses version " + version
                        + " from now on (pinned; `model latest " + model + "` follows the newest again)");
                return 0;
            });
        }
    }

    @Command(name = "latest", mixinStandardHelpOptions = true, description = "Drop a pin: scoring follows the newest version again.")
    static final class Latest extends ModelArgument implements Callable<Integer> {
        @Override
        public Integer call() {
            return withClient(client -> {
                final Object was = client.getMap(Payments.MODEL_PINS).remove(model);
                spec.commandLine().getOut().println("model " + model + ": scoring follows the newest version"
                        + (was == null ? " (it already did)" : " (was pinned to version " + was + ")"));
                return 0;
            });
        }
    }
}
