package io.streamgrid.node.impl;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.HazelcastInstance;
import io.streamgrid.node.ConfigException;

import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.logging.Logger;

/**
 * With {@code ingest.kind: chronicle} the logs are files on each member's own host, which only
 * processes on that host can open: a cluster across hosts would have a log per host, its jobs
 * reading and resuming from the wrong one — silent loss. So a member that finds, on joining, a
 * member whose address is not one of its own host's refuses to run (its instance is terminated),
 * naming the fix; a member already running logs the same as a SEVERE line when such a member
 * joins later (that member refuses itself). Loopback addresses and every address of a local
 * interface count as this host.
 */
public final class SingleHostGuard {
    private static final Logger LOG = Logger.getLogger(SingleHostGuard.class.getName());

    private SingleHostGuard() {
    }

    /** @throws ConfigException naming the member on another host and the fix */
    public static void check(final HazelcastInstance instance) {
        for (final Member member : instance.getCluster().getMembers()) {
            if (!member.localMember() && !onThisHost(member)) {
                throw new ConfigException(message(member));
            }
        }
        instance.getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(final MembershipEvent event) {
                if (!onThisHost(event.getMember())) {
                    LOG.severe(message(event.getMember()));
                }
            }

            @Override
            public void memberRemoved(final MembershipEvent event) {
            }
        });
    }

    private static String message(final Member member) {
        return "ingest.kind is chronicle, whose logs are files on each member's own host, but member " + member.getAddress()
                + " is on another host: a cluster across hosts has no shared Chronicle log — set ingest.kind: kafka (with "
                + "ingest.kafka.bootstrap-servers) on every member, or keep the cluster on one host";
    }

    static boolean onThisHost(final Member member) {
        try {
            final InetAddress address = member.getAddress().getInetAddress();
            return address.isLoopbackAddress() || address.isAnyLocalAddress() || NetworkInterface.getByInetAddress(address) != null;
        } catch (final UnknownHostException | SocketException e) {
            return false; // unknown: not provably this host
        }
    }
}
