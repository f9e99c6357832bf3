package io.streamgrid.cli;

import com.hazelcast.core.HazelcastInstance;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.util.function.ToIntFunction;

/**
 * What the commands that talk to a running cluster share: their output, the configuration and the
 * members to connect to ({@code --config}, {@code --members}). Public for commands a {@link CliPlugin}
 * adds: a subclass gets the same options and connection errors as the built-in commands.
 */
public abstract class ConnectedCommand {
    @Spec
    protected CommandSpec spec;
    @Mixin
    ConfigOptions options;
    @Mixin
    ConfigOptions.Members members;

    /** Runs {@code command} with a client of the cluster (see {@link ClientConnector#withClient}); returns its exit code. */
    protected final int withClient(final ToIntFunction<HazelcastInstance> command) {
        return ClientConnector.withClient(options.tree(), members.addresses, command);
    }
}
