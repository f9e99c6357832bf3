package io.streamgrid.node.impl;

import com.hazelcast.core.HazelcastInstance;
import io.streamgrid.jobs.ingest.LogRetention;

import java.nio.file.Path;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Applies {@code ingest.retention} to the member's ingest directory every
 * {@code ingest.retention.check-seconds}, on a thread of its own: deletions and what jobs hold back
 * go to the member's log. A pass that fails is logged and the next one tries again.
 */
public final class IngestRetentionTask implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger(IngestRetentionTask.class.getName());
    private final ScheduledExecutorService executor;

    private IngestRetentionTask(final LogRetention retention, final int everySeconds) {
        executor = Executors.newSingleThreadScheduledExecutor(runnable -> {
            final Thread thread = new Thread(runnable, "streamgrid-ingest-retention");
            thread.setDaemon(true);
            return thread;
        });
        executor.scheduleWithFixedDelay(() -> {
            try {
                retention.run(System.currentTimeMillis());
            } catch (final RuntimeException e) {
                LOG.log(Level.WARNING, "ingest retention pass failed (tried again in " + everySeconds + " s): " + e, e);
            }
        }, everySeconds, everySeconds, TimeUnit.SECONDS);
    }

    /** Starts the passes, or returns null when the rule deletes nothing (the default: logs are kept). */
    public static IngestRetentionTask start(final HazelcastInstance hazelcast, final Path ingestDir, final LogRetention.Rule rule,
                                            final int everySeconds) {
        if (!rule.deletesAnything()) {
            return null;
        }
        LOG.info("ingest retention on: " + ingestDir + ", " + (rule.days() > 0 ? "days older than " + rule.days() : "no age limit")
                + ", " + (rule.maxBytesPerLog() > 0 ? "at most " + rule.maxBytesPerLog() / (1024 * 1024) + " MiB per log" : "no size limit")
                + ", checked every " + everySeconds + " s");
        return new IngestRetentionTask(new LogRetention(hazelcast, ingestDir, rule, LOG::info), everySeconds);
    }

    @Override
    public void close() {
        executor.shutdownNow();
    }
}
