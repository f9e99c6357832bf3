package io.streamgrid.jobs.pipeline.impl;

import com.hazelcast.jet.core.AbstractProcessor;
import com.hazelcast.jet.core.BroadcastKey;
import com.hazelcast.jet.core.metrics.Metric;
import com.hazelcast.jet.core.metrics.Metrics;
import com.hazelcast.jet.core.metrics.Unit;
import io.streamgrid.sink.SnapshotEntries;
import io.streamgrid.jobs.ingest.LogPositions;
import io.streamgrid.jobs.pipeline.JobMetricNames;
import io.streamgrid.jobs.pipeline.Replay;
import io.streamgrid.jobs.pipeline.StateWriter;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;

/**
 * Source and processing fused in one cooperative processor: it reads the log partitions assigned
 * to it ({@code partition % totalParallelism == globalProcessorIndex}), runs each through its own
 * {@link PartitionTask}, and emits {@link StateUpdate}s to the sinks. Windowed and keyed jobs both
 * run on it.
 *
 * <p>Why fused: keys never cross a partition, so no shuffle is needed, no hand-off happens between
 * reading and processing, and each partition's watermark depends only on its own log — results are
 * deterministic and replay exactly. Snapshot: one entry per partition, broadcast on restore so
 * that any processor can take any partition when the member count changed.
 */
abstract class PartitionTasksP<T extends PartitionTask> extends AbstractProcessor {
    private static final int BATCH = 1024;
    private static final long CALL_BUDGET_NANOS = 1_000_000;
    static final long NO_HEARTBEAT = Long.MIN_VALUE;
    /**
     * A partition whose newest event was read at most this far behind the wall clock (or the idle
     * timeout, when longer) follows the wall clock: an idle heartbeat may move its clock with it. A
     * stream further behind is a history, and a pause in it moves nothing.
     */
    static final long LIVE_LAG_MS = 60_000;

    /** What goes to the progress vertex: nothing reads it. */
    private static final Boolean PROGRESS = Boolean.TRUE;

    private final String jobName;
    private final long allowedDisorderMs;
    private final long idleTimeoutNanos;
    private final long idleTimeoutMs;
    private final long skipBefore;
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
    /** How often the records behind are counted: Jet collects metrics every few seconds. */
    private static final long BEHIND_COUNT_NANOS = TimeUnit.MILLISECONDS.toNanos(500);
    private final List<T> tasks = new ArrayList<>();
    /** The ordinals of the state writer and the sinks; the last outbox ordinal is {@link JobDag}'s progress edge. */
    private int[] updateOrdinals;
    private int progressOrdinal;
    private boolean progressDue;
    /** Offers the tasks' states to Jet's snapshot; made at init. */
    private SnapshotOffer snapshotOffer;
    private final SnapshotChunks restoredChunks = new SnapshotChunks();
    private Metric eventsMetric;
    private Metric lateMetric;
    private Metric rejectedMetric;
    private Metric resultsMetric;
    private Metric watermarkMetric;
    private Metric startedMetric;
    private Metric restoredMetric;
    private Metric snapshotsMetric;
    private Metric snapshotBytesMetric;
    private Metric snapshotMillisMetric;
    private Metric snapshotDoneMetric;
    private Metric behindMetric;
    // For the metrics above: this execution's start, the partitions restored, the snapshot being saved,
    // when the records behind were last counted (from queue indexes: not on every call).
    private long behindCountedNanos;
    private long startedAtMs;
    private int restoredPartitions;
    private long snapshotStartNanos;
    /** Where this processor's checkpoints read the logs, for the logs' retention. */
    private LogPositions.Recorder positions;

    /**
     * {@code replay}: null for the live job. A replay skips the events before its start
     * ({@link PartitionTask#skipEventsBefore}) and never appends heartbeats: the logs are the live
     * job's, and a heartbeat moves the clock of every job that reads it, so a replay reads the ones
     * the live job appended and adds none (with no live job running, an idle log holds it back until
     * its next record or its end of stream).
     */
    PartitionTasksP(final String jobName, final long allowedDisorderMs, final long idleTimeoutMs, final Replay replay) {
        this.jobName = jobName;
        this.skipBefore = replay == null ? Long.MIN_VALUE : replay.fromEventTimeMs();
        this.allowedDisorderMs = allowedDisorderMs;
        this.idleTimeoutNanos = replay == null ? TimeUnit.MILLISECONDS.toNanos(idleTimeoutMs) : 0;
        this.idleTimeoutMs = idleTimeoutMs;
    }

    /** Opens the log(s) and whatever else the tasks read; returns the partition count. */
    abstract int openLog(Context context);

    /** The task of {@code partition}, writing to {@code out}. */
    abstract T newTask(int partition, StateWriter out);

    abstract void closeLog();

    /** Makes the records this processor appended to logs durable (blocks); nothing to do unless it emits into a log that appends asynchronously. */
    void flushOutputs() {
    }

    /** What the processor reads, for the log line at start. */
    abstract String source();

    /** Whether records may be handled yet (false while something they need is still loading). */
    boolean ready() {
        return true;
    }

    @Override
    protected void init(final Context context) {
        startedAtMs = System.currentTimeMillis();
        // The largest snapshot entry on this member, read once.
        snapshotOffer = new SnapshotOffer(this::tryEmitToSnapshot, SerializedChunks.of(context),
                SnapshotEntries.maxBytes(context.hazelcastInstance()));
        progressOrdinal = getOutbox().bucketCount() - 1;
        updateOrdinals = new int[progressOrdinal];
        for (int i = 0; i < progressOrdinal; i++) {
            updateOrdinals[i] = i;
        }
        final int partitions = openLog(context);
        for (int p = 0; p < partitions; p++) {
            if (p % context.totalParallelism() == context.globalProcessorIndex()) {
                final T task = newTask(p, writer);
                task.skipEventsBefore(skipBefore);
                tasks.add(task);
                if (positions == null) {
                    positions = new LogPositions.Recorder(context.hazelcastInstance(), context.jobId());
                }
                task.registerPositions(positions);
            }
        }
        getLogger().info("job " + jobName + ": processor " + context.globalProcessorIndex() + " of "
                + context.totalParallelism() + " reads partitions " + tasks.stream().map(PartitionTask::partition).toList()
                + " of " + source() + " (init on " + Thread.currentThread().getName() + ")");
    }

    /**
     * Reads and processes up to {@value #CALL_BUDGET_NANOS} ns' worth of records per call, in
     * batches of {@value #BATCH} per partition, returning earlier when the log has nothing new or
     * results wait for the outbox. A call that read records emits one item to the progress edge.
     * Why both: Jet counts a call as progress only when it emits, and after calls without progress
     * it parks the worker, up to 1 ms after a run of them — most calls of a fused source emit no
     * result (windows close now and then, keyed functions write when they choose), so one-batch
     * calls left the thread parked about half of the time, and so did 1 ms calls until they emitted
     * (the keyed benchmark's throughput doubled).
     */
    @Override
    public boolean complete() {
        if (!drain() || !ready()) {
            return false;
        }
        final long start = System.nanoTime();
        boolean read;
        boolean readAny = false;
        do {
            read = false;
            for (final T task : tasks) {
                read |= task.poll(BATCH) > 0;
                if (!drain()) {
                    updateMetrics();
                    return false;
                }
            }
            readAny |= read;
        } while (read && System.nanoTime() - start < CALL_BUDGET_NANOS);
        progressDue |= readAny;
        drain();
        if (idleTimeoutNanos > 0) {
            heartbeatIdlePartitions();
        }
        updateMetrics();
        return false; // a stream never completes
    }

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
     * A partition whose log (or one of whose logs) had no records for the idle timeout gets a
     * heartbeat appended there (see {@link PartitionTask#heartbeatIfIdle}): its event-time clock
     * moves to the newest event time of this processor's other partitions, or the wall clock.
     * Appended, not applied: the task reads it like any record, so a replay after a restore moves the
     * watermark at exactly the same place.
     */
    private void heartbeatIdlePartitions() {
        final long now = System.nanoTime();
        for (final T idle : tasks) {
            long othersNewest = Long.MIN_VALUE;
            for (final T other : tasks) {
                if (other != idle && !other.ended() && other.watermark() != Long.MIN_VALUE) {
                    othersNewest = Math.max(othersNewest, other.watermark() + allowedDisorderMs);
                }
            }
            final long wallClock = idle.clockByWallClock(allowedDisorderMs, Math.max(idleTimeoutMs, LIVE_LAG_MS),
                    System.currentTimeMillis()); // Long.MIN_VALUE for a history: a paused one has not moved on
            final long eventTime = idle.heartbeatIfIdle(now, idleTimeoutNanos, allowedDisorderMs, othersNewest, wallClock);
            if (eventTime != NO_HEARTBEAT) {
                getLogger().fine("job " + jobName + ": partition " + idle.partition() + " idle, heartbeat at event time " + eventTime);
            }
        }
    }

    /** Emits the pending progress item and updates; false when the outbox is full (the rest wait for the next call). */
    private boolean drain() {
        if (progressDue) {
            if (!tryEmit(progressOrdinal, PROGRESS)) {
                return false;
            }
            progressDue = false;
        }
        StateUpdate update;
        while ((update = pending.peek()) != null) {
            if (!tryEmit(updateOrdinals, update)) {
                return false;
            }
            pending.poll();
        }
        return true;
    }

    /**
     * Jet user metrics of this processor (the member's metrics endpoint sums them per job): counts
     * since this execution started, the lowest watermark of its partitions (0 while none has one),
     * the execution's start and how many partitions it restored from a snapshot, and the last
     * snapshot's bytes, duration (its first save call to its commit) and completion time.
     */
    private void updateMetrics() {
        if (eventsMetric == null) {
            // User metrics can only be created on the processor's own thread, not in init().
            eventsMetric = Metrics.metric(JobMetricNames.EVENTS_IN);
            lateMetric = Metrics.metric(JobMetricNames.LATE_EVENTS);
            rejectedMetric = Metrics.metric(JobMetricNames.REJECTED_RECORDS);
            resultsMetric = Metrics.metric(JobMetricNames.RESULTS);
            watermarkMetric = Metrics.metric(JobMetricNames.WATERMARK, Unit.MS);
            startedMetric = Metrics.metric(JobMetricNames.EXECUTION_STARTED, Unit.MS);
            restoredMetric = Metrics.metric(JobMetricNames.RESTORED_PARTITIONS);
            snapshotsMetric = Metrics.metric(JobMetricNames.SNAPSHOTS);
            snapshotBytesMetric = Metrics.metric(JobMetricNames.SNAPSHOT_BYTES, Unit.BYTES);
            snapshotMillisMetric = Metrics.metric(JobMetricNames.SNAPSHOT_MILLIS, Unit.MS);
            snapshotDoneMetric = Metrics.metric(JobMetricNames.SNAPSHOT_COMPLETED, Unit.MS);
            behindMetric = Metrics.metric(JobMetricNames.RECORDS_BEHIND);
            startedMetric.set(startedAtMs);
        }
        final long now = System.nanoTime();
        if (behindCountedNanos == 0 || now - behindCountedNanos >= BEHIND_COUNT_NANOS) {
            behindCountedNanos = now;
            long behind = 0;
            for (final T task : tasks) {
                behind += task.recordsBehind();
            }
            behindMetric.set(behind);
        }
        long events = 0;
        long late = 0;
        long rejected = 0;
        long results = 0;
        long watermark = Long.MAX_VALUE;
        for (final T task : tasks) {
            events += task.events();
            late += task.lateEvents();
            rejected += task.rejected();
            results += task.results();
            if (task.watermark() != Long.MIN_VALUE && !task.ended()) {
                watermark = Math.min(watermark, task.watermark());
            }
        }
        eventsMetric.set(events);
        lateMetric.set(late);
        rejectedMetric.set(rejected);
        resultsMetric.set(results);
        watermarkMetric.set(watermark == Long.MAX_VALUE ? 0 : watermark);
        restoredMetric.set(restoredPartitions);
    }

    @Override
    public boolean saveToSnapshot() {
        // Results already produced belong before the barrier: emit them first.
        if (!drain()) {
            return false;
        }
        if (snapshotOffer.idle() && snapshotStartNanos == 0) {
            snapshotStartNanos = System.nanoTime();
            // What was emitted before the barrier must be in its log before the snapshot can complete.
            flushOutputs();
            if (positions != null) {
                tasks.forEach(task -> task.capturePositions(positions));
            }
        }
        // Jet calls again after a refused entry, with the state untouched meanwhile: go on where it stopped.
        return snapshotOffer.offer(tasks);
    }

    @Override
    public boolean snapshotCommitFinish(final boolean success) {
        if (positions != null) {
            positions.committed(success);
        }
        if (success && snapshotStartNanos != 0 && snapshotsMetric != null) {
            snapshotsMetric.increment();
            snapshotBytesMetric.set(snapshotOffer.bytes());
            snapshotMillisMetric.set(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - snapshotStartNanos));
            snapshotDoneMetric.set(System.currentTimeMillis());
        }
        snapshotStartNanos = 0;
        return true;
    }

    @Override
    protected void restoreFromSnapshot(final Object key, final Object value) {
        // An Integer key: a whole state, saved before states were cut into chunks.
        final Object savedKey = ((BroadcastKey<?>) key).key();
        final boolean whole = savedKey instanceof Integer;
        final T task = taskOf(whole ? (Integer) savedKey : SnapshotChunks.partitionOf((Long) savedKey));
        if (task == null) {
            return; // another processor's partition: every processor is offered every entry
        }
        final byte[] state = whole ? (byte[]) value : restoredChunks.add((Long) savedKey, (byte[]) value);
        if (state != null) {
            task.restore(state);
            restoredPartitions++;
        }
    }

    @Override
    public boolean finishSnapshotRestore() {
        final Set<Integer> incomplete = restoredChunks.incomplete();
        if (!incomplete.isEmpty()) {
            throw new IllegalStateException("snapshot of job " + jobName + " lacks chunks of partitions " + incomplete
                    + ": it cannot be restored");
        }
        return true;
    }

    /** This processor's task of {@code partition}, or null when another processor reads it. */
    private T taskOf(final int partition) {
        for (final T task : tasks) {
            if (task.partition() == partition) {
                return task;
            }
        }
        return null;
    }

    @Override
    public void close() {
        for (final T task : tasks) {
            task.close();
        }
        closeLog();
    }
}
