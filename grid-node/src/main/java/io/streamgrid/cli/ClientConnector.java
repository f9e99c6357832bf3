package io.streamgrid.cli;

import com.hazelcast.client.HazelcastClient;
import io.streamgrid.client.ClientSettings;
import io.streamgrid.client.StreamGridClient;
import com.hazelcast.core.HazelcastInstance;
import io.streamgrid.node.ConfigException;
import io.streamgrid.node.MemberAddress;
import io.streamgrid.node.impl.ConfigTree;
import io.streamgrid.node.impl.SettingsLoader;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;

/** Connects CLI commands to a cluster named by the configuration (cluster-name, network.members). */
final class ClientConnector {
    /** How long a probe of one address waits for the TCP handshake. */
    private static final int PROBE_TIMEOUT_MS = 1_000;

    private ClientConnector() {
    }

    /**
     * A client of the cluster; {@code members} (host:port) replace the configured join list when
     * given.
     *
     * @throws ConfigException naming the addresses when no member answers within 30 seconds, at once
     *                         when every address refuses the connection
     */
    static HazelcastInstance connect(final ConfigTree config, final List<String> members) {
        final ClientSettings settings = settings(config, members);
        failFastWhenNobodyListens(settings);
        try {
            return HazelcastClient.newHazelcastClient(settings.toHazelcastConfig());
        } catch (final IllegalStateException e) {
            throw noMemberAnswered(settings, e);
        }
    }

    /** A {@link StreamGridClient} of the cluster (subscriptions need one), connected as {@link #connect}. */
    static StreamGridClient connectStreamGrid(final ConfigTree config, final List<String> members) {
        final ClientSettings settings = settings(config, members);
        failFastWhenNobodyListens(settings);
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

    /**
     * Fails at once when every address refuses a TCP connection: nothing listens there, and the
     * client's 30 s wait would only delay the message. An address that accepts, or does not answer
     * within {@link #PROBE_TIMEOUT_MS} (a member starting, a host behind a firewall), leaves the
     * decision to the client's wait.
     */
    private static void failFastWhenNobodyListens(final ClientSettings settings) {
        for (final String address : settings.addresses()) {
            final MemberAddress member = MemberAddress.parse(address);
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress(member.host(), member.port()), PROBE_TIMEOUT_MS);
                return;
            } catch (final ConnectException refused) {
                // nothing listens at this address: try the next
            } catch (final IOException other) {
                return; // unknown (a timeout, an unreachable host): the client's wait decides
            }
        }
        throw new ConfigException("no member of cluster '" + settings.clusterName() + "' is listening at " + settings.addresses()
                + " (connection refused): start one ('streamgrid cluster start') or name members with --member");
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
