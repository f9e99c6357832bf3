package io.streamgrid.node;

import com.hazelcast.config.Config;
import com.hazelcast.core.Hazelcast;
import com.hazelcast.core.HazelcastInstance;
import io.streamgrid.jobs.ingest.LocalFileSystemCheck;
import com.hazelcast.core.LifecycleEvent;
import io.streamgrid.node.impl.HazelcastConfigFactory;
import io.streamgrid.client.impl.publish.MemberPublishing;
import io.streamgrid.node.impl.IngestRetentionTask;
import io.streamgrid.node.impl.PublishService;
import io.streamgrid.node.impl.SingleHostGuard;
import io.streamgrid.node.impl.MetricsEndpoint;
import io.streamgrid.node.impl.StatePersistence;

import java.io.IOException;
import java.nio.file.Files;
import java.util.concurrent.CountDownLatch;
import java.util.logging.Logger;

/**
 * One running grid member: a Hazelcast member (Jet enabled) configured from {@link NodeSettings}.
 *
 * <p>{@link #close()} shuts the member down gracefully: it returns once the member's partitions
 * have migrated to the others (or the configured maximum wait has passed). SIGTERM does the same
 * through Hazelcast's shutdown hook.
 */
public final class GridNode implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(GridNode.class.getName());

    private final HazelcastInstance hazelcast;
    private final CountDownLatch shutDown = new CountDownLatch(1);
    /** Null when metrics are off or their port could not be bound. */
    private final MetricsEndpoint metrics;

    private GridNode(final HazelcastInstance hazelcast, final MetricsEndpoint metrics, final StatePersistence persistence,
                     final IngestRetentionTask retention, final PublishService publishing) {
        this.hazelcast = hazelcast;
        this.metrics = metrics;
        hazelcast.getLifecycleService().addLifecycleListener(event -> {
            if (event.getState() == LifecycleEvent.LifecycleState.SHUTDOWN) {
                if (metrics != null) {
                    metrics.close();
                }
                if (persistence != null) {
                    persistence.close();
                }
                if (retention != null) {
                    retention.close();
                }
                publishing.close();
                shutDown.countDown();
            }
        });
    }

    /** The metrics endpoint, or null when metrics are off or their port could not be bound (a warning was logged). */
    private static MetricsEndpoint startMetrics(final HazelcastInstance instance, final NodeSettings settings,
                                                final StatePersistence persistence) {
        if (!settings.metricsEnabled()) {
            return null;
        }
        try {
            return MetricsEndpoint.start(instance, settings.metricsHost(), settings.metricsPortResolved(),
                    persistence == null ? () -> null : persistence::waitingFor);
        } catch (final IOException | RuntimeException e) {
            LOG.warning("metrics endpoint not started: cannot serve on " + settings.metricsHost() + ":" + settings.metricsPortResolved()
                    + " (" + e.getMessage() + "); the member runs without metrics — free the port or set metrics.port");
            return null;
        }
    }

    /**
     * Starts a member and returns once it has joined (or formed) its cluster. Logs one line when
     * ready: address, cluster name, member count, the health URL and the metrics URL. Metrics that
     * cannot be served (port taken) are a warning: the member runs without them.
     *
     * @throws ConfigException when the data directory cannot be created, or the ingest directory is
     *                         on a network file system and that is not explicitly allowed
     */
    public static GridNode start(final NodeSettings settings) {
        try {
            Files.createDirectories(settings.dataDir());
        } catch (final IOException e) {
            throw new ConfigException("cannot create data-dir " + settings.dataDir() + " (" + e.getMessage()
                    + "): choose a writable directory with --data-dir", e);
        }
        if (!settings.ingestAllowNetworkFileSystem()) {
            try {
                LocalFileSystemCheck.refuseNetworkFileSystem(settings.ingestDir(), "ingest.allow-network-file-system");
            } catch (final IllegalArgumentException e) {
                throw new ConfigException(e.getMessage(), e);
            }
        }
        final Config config = HazelcastConfigFactory.memberConfig(settings);
        final PublishService publishing = new PublishService(settings);
        config.getUserContext().put(MemberPublishing.CONTEXT_KEY, publishing);
        final HazelcastInstance instance = Hazelcast.newHazelcastInstance(config);
        publishing.attach(instance);
        if (!settings.ingestOnKafka()) {
            try {
                SingleHostGuard.check(instance);
            } catch (final ConfigException e) {
                instance.getLifecycleService().terminate();
                throw e;
            }
        }
        final StatePersistence persistence = StatePersistence.start(instance, config, settings.persistence());
        final GridNode node = new GridNode(instance, startMetrics(instance, settings, persistence), persistence,
                IngestRetentionTask.start(instance, settings.ingestDir(), settings.ingestRetention(),
                        settings.ingestRetentionCheckSeconds()), publishing);
        if (settings.allowCodeUpload()) {
            LOG.warning("jobs.allow-code-upload is true: any client that can reach " + settings.address()
                    + " can send code that runs on every member of cluster " + settings.clusterName());
        }
        if (settings.bindAny()) {
            LOG.warning("network.bind-any is true: the member listens on every interface of this host, port "
                    + settings.port() + "; anyone who reaches any of them can read and write all data (no authentication in CE)");
        }
        LOG.info(() -> "StreamGrid member ready: address=" + settings.address()
                + " cluster=" + settings.clusterName()
                + " members=" + instance.getCluster().getMembers().size()
                + (settings.healthCheckEnabled() ? " health=http://" + settings.address() + "/hazelcast/health" : "")
                + (node.metrics != null ? " metrics=http://" + settings.metricsHost() + ":" + node.metrics.port() + "/metrics" : ""));
        return node;
    }

    public HazelcastInstance hazelcast() {
        return hazelcast;
    }

    /** Blocks until the member has shut down (by {@link #close()}, SIGTERM or the cluster). */
    public void awaitShutdown() throws InterruptedException {
        shutDown.await();
    }

    @Override
    public void close() {
        hazelcast.shutdown();
    }
}
