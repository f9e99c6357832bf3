package io.streamgrid.client.impl;

import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.map.IMap;
import io.streamgrid.client.SubscriptionReport;

import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * A subscription's counters in the cluster's report map ({@link SubscriptionReport#MAP}), for
 * {@code streamgrid top} and the status page: written every {@link SubscriptionReport#EVERY_MS}
 * asynchronously (the delivery thread does not wait; a lost report is replaced by the next), with a
 * time to live, and removed when the subscription ends.
 */
final class SubscriptionReporter {
    private static final Logger LOG = Logger.getLogger(SubscriptionReporter.class.getName());

    private final HazelcastInstance client;
    private final String mapName;
    private final String whereText;
    private final String reportId = UUID.randomUUID().toString();
    private final IMap<String, SubscriptionReport> reports;
    private long lastReportNanos;

    SubscriptionReporter(final HazelcastInstance client, final String mapName, final String whereText) {
        this.client = client;
        this.mapName = mapName;
        this.whereText = whereText;
        this.reports = client.getMap(SubscriptionReport.MAP);
    }

    /** Writes the counters when the last report is {@link SubscriptionReport#EVERY_MS} old; else nothing. */
    void report(final String state, final long delivered, final long resyncs, final long overflows, final long listenerErrors,
                final int queued) {
        final long now = System.nanoTime();
        if (now - lastReportNanos < TimeUnit.MILLISECONDS.toNanos(SubscriptionReport.EVERY_MS)) {
            return;
        }
        lastReportNanos = now;
        try {
            reports.setAsync(reportId, new SubscriptionReport(reportId, client.getName(), mapName, whereText, state, delivered, resyncs,
                    overflows, listenerErrors, queued, System.currentTimeMillis()), SubscriptionReport.TTL_SECONDS, TimeUnit.SECONDS);
        } catch (final RuntimeException e) {
            LOG.log(Level.FINE, "subscription to " + mapName + ": report not written", e);
        }
    }

    /** Removes the report when the subscription ends (its time to live would remove it anyway). */
    void remove() {
        if (client.getLifecycleService().isRunning()) {
            try {
                reports.removeAsync(reportId);
            } catch (final RuntimeException e) {
                LOG.log(Level.FINE, "subscription to " + mapName + ": report not removed", e);
            }
        }
    }
}
