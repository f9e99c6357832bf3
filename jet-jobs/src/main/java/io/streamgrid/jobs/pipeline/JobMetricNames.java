package io.streamgrid.jobs.pipeline;

/**
 * The Jet user metrics every StreamGrid job processor publishes (per processor; the member's
 * metrics endpoint and the status page sum them per job). Counts start at 0 with each execution.
 */
public final class JobMetricNames {
    /** Valid events taken in (late ones too). */
    public static final String EVENTS_IN = "streamgridEventsIn";
    public static final String LATE_EVENTS = "streamgridLateEvents";
    public static final String REJECTED_RECORDS = "streamgridRejectedRecords";
    /** Window results, or a keyed function's puts and removes. */
    public static final String RESULTS = "streamgridWindowResults";
    /** The lowest watermark of the processor's live partitions, epoch ms; 0 while none has one. */
    public static final String WATERMARK = "streamgridWatermark";
    /**
     * Records in the processor's log partitions not read yet — its lag in records, control records
     * included; refreshed about once a second. A replay has caught up when this is near 0.
     */
    public static final String RECORDS_BEHIND = "streamgridRecordsBehind";
    /** When the processor's execution started, epoch ms. */
    public static final String EXECUTION_STARTED = "streamgridExecutionStarted";
    public static final String RESTORED_PARTITIONS = "streamgridRestoredPartitions";
    public static final String SNAPSHOTS = "streamgridSnapshots";
    public static final String SNAPSHOT_BYTES = "streamgridSnapshotBytes";
    /** The last snapshot, from its first save call to its commit. */
    public static final String SNAPSHOT_MILLIS = "streamgridSnapshotMillis";
    /** When the last snapshot completed, epoch ms. */
    public static final String SNAPSHOT_COMPLETED = "streamgridSnapshotCompleted";

    private JobMetricNames() {
    }
}
