package io.streamgrid.jobs.pipeline.impl;

import com.hazelcast.jet.core.AbstractProcessor;
import com.hazelcast.jet.core.BroadcastKey;
import com.hazelcast.jet.core.metrics.Metric;
import com.hazelcast.jet.core.metrics.Metrics;
import io.streamgrid.jobs.ingest.IngestLog;
import io.streamgrid.jobs.pipeline.StateWriter;
import io.streamgrid.jobs.pipeline.WindowedJob;

import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Source and windowing fused in one cooperative processor: it reads the ingest-log partitions
 * assigned to it ({@code partition % totalParallelism == globalProcessorIndex}), runs each
 * through its own {@link PartitionRun}, and emits {@link StateUpdate}s to the sink.
 *
 * <p>Why fused: keys never cross a partition, so no shuffle is needed, no hand-off happens between
 * reading and windowing, and each partition's watermark depends only on its own log — results are
 * deterministic and replay exactly. Snapshot: one entry per partition (read index, window state,
 * handler state), broadcast on restore so that any processor can take any partition when the
 * member count changed.
 */
final class IngestWindowP<A> extends AbstractProcessor {
    private static final int BATCH = 1024;
    private static final long CALL_BUDGET_NANOS = 1_000_000;

    private final WindowedJob<A> job;
    private final String logDir;
    private final ArrayDeque<StateUpdate> pending = new ArrayDeque<>();
    private final StateWriter writer = new StateWriter() {
        @Override
        public void put(final String map, final Object key, final Object value) {
            pending.add(new StateUpdate(map, key, value));
        }

        @Override
        public void remove(final String map, final Object key) {
            pending.add(new StateUpdate(map, key, null));
        }
    };
    private final List<PartitionRun<A>> runs = new ArrayList<>();
    private long idleTimeoutNanos;
    private IngestLog log;
    private int snapshotCursor;
    private Metric eventsMetric;
    private Metric lateMetric;
    private Metric rejectedMetric;
    private Metric resultsMetric;

    IngestWindowP(final WindowedJob<A> job, final String logDir) {
        this.job = job;
        this.logDir = logDir;
    }

    @Override
    protected void init(final Context context) {
        log = IngestLog.openExisting(Path.of(logDir));
        for (int p = 0; p < log.partitions(); p++) {
            if (p % context.totalParallelism() == context.globalProcessorIndex()) {
                runs.add(new PartitionRun<>(job, p, writer));
            }
        }
        idleTimeoutNanos = TimeUnit.MILLISECONDS.toNanos(job.policy().idleTimeoutMs());
        getLogger().info("job " + job.name() + ": processor " + context.globalProcessorIndex() + " of "
                + context.totalParallelism() + " reads partitions " + runs.stream().map(PartitionRun::partition).toList()
                + " of " + logDir);
    }

    /**
     * Reads and windows up to {@value #CALL_BUDGET_NANOS} ns' worth of records per call, in batches
     * of {@value #BATCH} per partition, returning earlier when the log has nothing new or results
     * wait for the outbox. Why a time budget and not one batch: Jet counts a call as progress only
     * when it emits, and parks the worker for up to 1 ms after each call without progress — most
     * calls of a windowing source emit nothing (results come at window ends), so one-batch calls
     * left the thread parked about half of the time.
     */
    @Override
    public boolean complete() {
        if (!drain()) {
            return false;
        }
        final long start = System.nanoTime();
        boolean read;
        do {
            read = false;
            for (final PartitionRun<A> run : runs) {
                read |= run.poll(log, BATCH) > 0;
                if (!drain()) {
                    updateMetrics();
                    return false;
                }
            }
        } while (read && System.nanoTime() - start < CALL_BUDGET_NANOS);
        if (idleTimeoutNanos > 0) {
            heartbeatIdlePartitions();
        }
        updateMetrics();
        return false; // a stream never completes
    }

    static final long NO_HEARTBEAT = Long.MIN_VALUE;

    /**
     * The event time an idle partition's heartbeat carries: the newest event time of the other
     * partitions when that is ahead of the partition's own, else the wall clock when that is; or
     * {@link #NO_HEARTBEAT} when neither would move it.
     */
    static long heartbeatTime(final long ownNewest, final long othersNewest, final long wallClockMs) {
        if (othersNewest > ownNewest) {
            return othersNewest;
        }
        return wallClockMs > ownNewest ? wallClockMs : NO_HEARTBEAT;
    }

    /**
     * A partition without records for the idle timeout gets a heartbeat in the log: its event-time
     * clock moves to the newest event time of this processor's other partitions, or, when none is
     * ahead of it, to the wall clock. Appended, not applied: the run reads it like any record, so a
     * replay after a restore moves the watermark at exactly the same place.
     */
    private void heartbeatIdlePartitions() {
        final long now = System.nanoTime();
        final long disorder = job.policy().allowedDisorderMs();
        for (final PartitionRun<A> idle : runs) {
            if (now - idle.lastRecordNanos() < idleTimeoutNanos || idle.ended() || idle.watermark() == Long.MIN_VALUE) {
                continue; // active, ended, or never had an event (so no window to close)
            }
            long othersNewest = Long.MIN_VALUE;
            for (final PartitionRun<A> other : runs) {
                if (other != idle && !other.ended() && other.watermark() != Long.MIN_VALUE) {
                    othersNewest = Math.max(othersNewest, other.watermark() + disorder);
                }
            }
            final long eventTime = heartbeatTime(idle.watermark() + disorder, othersNewest, System.currentTimeMillis());
            if (eventTime != NO_HEARTBEAT) {
                log.appendHeartbeat(idle.partition(), eventTime);
                getLogger().fine("job " + job.name() + ": partition " + idle.partition() + " idle for "
                        + TimeUnit.NANOSECONDS.toMillis(now - idle.lastRecordNanos()) + " ms, heartbeat at event time " + eventTime);
            }
            idle.markRead(now); // not again before the heartbeat is read, or another idle timeout passed
        }
    }

    private boolean drain() {
        StateUpdate update;
        while ((update = pending.peek()) != null) {
            if (!tryEmit(update)) {
                return false;
            }
            pending.poll();
        }
        return true;
    }

    private void updateMetrics() {
        if (eventsMetric == null) {
            // User metrics can only be created on the processor's own thread, not in init().
            eventsMetric = Metrics.metric("streamgridEventsIn");
            lateMetric = Metrics.metric("streamgridLateEvents");
            rejectedMetric = Metrics.metric("streamgridRejectedRecords");
            resultsMetric = Metrics.metric("streamgridWindowResults");
        }
        long events = 0;
        long late = 0;
        long rejected = 0;
        long results = 0;
        for (final PartitionRun<A> run : runs) {
            events += run.events;
            late += run.lateEvents();
            rejected += run.rejected;
            results += run.results;
        }
        eventsMetric.set(events);
        lateMetric.set(late);
        rejectedMetric.set(rejected);
        resultsMetric.set(results);
    }

    @Override
    public boolean saveToSnapshot() {
        // Results already produced belong before the barrier: emit them first.
        if (!drain()) {
            return false;
        }
        while (snapshotCursor < runs.size()) {
            final PartitionRun<A> run = runs.get(snapshotCursor);
            if (!tryEmitToSnapshot(BroadcastKey.broadcastKey(run.partition()), run.snapshot())) {
                return false;
            }
            snapshotCursor++;
        }
        snapshotCursor = 0;
        return true;
    }

    @Override
    protected void restoreFromSnapshot(final Object key, final Object value) {
        final int partition = (Integer) ((BroadcastKey<?>) key).key();
        for (final PartitionRun<A> run : runs) {
            if (run.partition() == partition) {
                run.restore((byte[]) value);
            }
        }
    }

    @Override
    public void close() {
        for (final PartitionRun<A> run : runs) {
            run.close();
        }
        if (log != null) {
            log.close();
        }
    }
}
