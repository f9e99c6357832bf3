package io.streamgrid.cli;

import com.hazelcast.client.HazelcastClient;
import io.streamgrid.client.ClientSettings;
import io.streamgrid.client.StreamGridClient;
import com.hazelcast.core.HazelcastInstance;
import io.streamgrid.node.ConfigException;
import io.streamgrid.node.MemberAddress;
import io.streamgrid.node.impl.ConfigTree;
import io.streamgrid.node.impl.SettingsLoader;

import java.util.List;

/** Connects CLI commands to a cluster named by the configuration (cluster-name, network.members). */
final class ClientConnector {
    private ClientConnector() {
    }

    /**
     * A client of the cluster; {@code members} (host:port) replace the configured join list when
     * given.
     *
     * @throws ConfigException naming the addresses when no member answers within 30 seconds
     */
    static HazelcastInstance connect(final ConfigTree config, final List<String> members) {
        final ClientSettings settings = settings(config, members);
        try {
            return HazelcastClient.newHazelcastClient(settings.toHazelcastConfig());
        } catch (final IllegalStateException e) {
            throw noMemberAnswered(settings, e);
        }
    }

    /** A {@link StreamGridClient} of the cluster (subscriptions need one), connected as {@link #connect}. */
    static StreamGridClient connectStreamGrid(final ConfigTree config, final List<String> members) {
        final ClientSettings settings = settings(config, members);
        try {
            return StreamGridClient.connect(settings);
        } catch (final IllegalStateException e) {
            throw noMemberAnswered(settings, e);
        }
    }

    private static ClientSettings settings(final ConfigTree config, final List<String> members) {
        final List<String> addresses = members == null || members.isEmpty()
                ? SettingsLoader.members(config).stream().map(MemberAddress::toString).toList()
                : members.stream().map(a -> MemberAddress.parse(a).toString()).toList();
        ClientSettings settings = ClientSettings.of(config.string("cluster-name"), addresses);
        for (final String prefix : SettingsLoader.deserializationAllowed(config)) {
            settings = settings.withDeserializationAllowed(prefix);
        }
        return settings;
    }

    private static ConfigException noMemberAnswered(final ClientSettings settings, final Exception cause) {
        return new ConfigException("no member of cluster '" + settings.clusterName() + "' answered at " + settings.addresses()
                + " within 30 s: start one ('streamgrid cluster start') or name members with --member", cause);
    }

    /** Connects as {@link #connect}, runs {@code command} with the client, and shuts the client down; returns its exit code. */
    static int withClient(final ConfigTree config, final List<String> members,
                          final java.util.function.ToIntFunction<HazelcastInstance> command) {
        final HazelcastInstance client = connect(config, members);
        try {
            return command.applyAsInt(client);
        } finally {
            client.shutdown();
        }
    }
}
