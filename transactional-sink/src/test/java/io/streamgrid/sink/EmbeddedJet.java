package io.streamgrid.sink;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;

import java.util.UUID;

/** One embedded member with Jet, on 127.0.0.1, alone in a cluster of its own: where the sink's tests run their jobs. */
final class EmbeddedJet {
    private EmbeddedJet() {
    }

    /** A new member in a cluster named {@code namePrefix} plus a random suffix; the caller shuts it down. */
    static HazelcastInstance member(final String namePrefix) {
        final Config config = new Config();
        config.setClusterName(namePrefix + UUID.randomUUID());
        config.setProperty("hazelcast.local.localAddress", "127.0.0.1");
        // Small snapshot entries: the restore tests then put transactions together from many entries.
        config.setProperty(SnapshotEntries.PROPERTY, "256");
        config.getNetworkConfig().getJoin().getMulticastConfig().setEnabled(false);
        config.getNetworkConfig().getJoin().getAutoDetectionConfig().setEnabled(false);
        config.getJetConfig().setEnabled(true);
        return Hazelcast.newHazelcastInstance(config);
    }
}
