package io.streamgrid.node.impl;

import com.hazelcast.core.DistributedObject;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.metrics.MetricDescriptor;
import com.hazelcast.internal.metrics.MetricsRegistry;
import com.hazelcast.internal.metrics.collectors.MetricsCollector;
import com.hazelcast.jet.core.metrics.MetricTags;
import com.hazelcast.map.IMap;
import com.hazelcast.map.LocalMapStats;
import io.streamgrid.client.SubscriptionReport;
import io.streamgrid.jobs.pipeline.JobMetricNames;
import io.streamgrid.sink.SinkMetricNames;
import io.prometheus.metrics.model.registry.MultiCollector;
import io.prometheus.metrics.model.snapshots.CounterSnapshot;
import io.prometheus.metrics.model.snapshots.GaugeSnapshot;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.MetricSnapshot;
import io.prometheus.metrics.model.snapshots.MetricSnapshots;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongBinaryOperator;
import java.util.stream.Collectors;

/**
 * What one member tells Prometheus about itself, read when scraped (nothing is kept between
 * scrapes, nothing runs on the jobs' threads): its jobs (summed over the job's processors on this
 * member, from the Jet user metrics our processors and sinks publish), its maps, its partitions
 * and the cluster as it sees it.
 *
 * <p>Job counters count since the job's current execution started on this member (a restart
 * starts them again; {@code streamgrid_job_execution_start_timestamp_seconds} moves then). Jet's
 * user metrics come from Hazelcast's member metrics registry, an internal API of the pinned
 * Hazelcast version: if a Hazelcast upgrade moves it, the job series are missing and
 * {@code MemberMetricsTest} fails, the rest stay.
 */
final class MemberMetrics implements MultiCollector {
    private static final LongBinaryOperator SUM = Long::sum;

    /** A Jet user metric, how to combine it over a job's processors, and the series it becomes. */
    private record JobSeries(String userMetric, LongBinaryOperator combine, String name, boolean counter, double scale,
                             String help) {
    }

    private static final List<JobSeries> JOB_SERIES = List.of(
            new JobSeries(JobMetricNames.EVENTS_IN, SUM, "streamgrid_job_events_in", true, 1,
                    "Events the job's partitions on this member took in since the execution started"),
            new JobSeries(JobMetricNames.LATE_EVENTS, SUM, "streamgrid_job_late_events", true, 1,
                    "Events too late for the job (to its late side output)"),
            new JobSeries(JobMetricNames.REJECTED_RECORDS, SUM, "streamgrid_job_rejected_records", true, 1,
                    "Log records that are not valid events of the job's schemas (to its rejected side output)"),
            new JobSeries(JobMetricNames.RESULTS, SUM, "streamgrid_job_results", true, 1,
                    "Results the job wrote (window results, or the keyed function's puts and removes)"),
            new JobSeries(JobMetricNames.WATERMARK, JobFigures::lowestSet, "streamgrid_job_watermark_timestamp_seconds", false, 1e-3,
                    "The lowest event-time watermark of the job's partitions on this member; lag = time() - this"),
            new JobSeries(JobMetricNames.RECORDS_BEHIND, SUM, "streamgrid_job_records_behind", false, 1,
                    "Records in the job's log partitions on this member not read yet (its lag in records; ~0 when caught up)"),
            new JobSeries(JobMetricNames.EXECUTION_STARTED, JobFigures::lowestSet, "streamgrid_job_execution_start_timestamp_seconds",
                    false, 1e-3, "When the job's current execution started on this member (moves on every restart)"),
            new JobSeries(JobMetricNames.RESTORED_PARTITIONS, SUM, "streamgrid_job_restored_partitions", false, 1,
                    "Partitions the current execution restored from a snapshot (0: it started fresh)"),
            new JobSeries(JobMetricNames.SNAPSHOTS, SUM, "streamgrid_job_snapshots", true, 1,
                    "Snapshots completed by the job's processors on this member in this execution"),
            new JobSeries(JobMetricNames.SNAPSHOT_BYTES, SUM, "streamgrid_job_last_snapshot_bytes", false, 1,
                    "Bytes of partition state this member wrote in the job's last snapshot"),
            new JobSeries(JobMetricNames.SNAPSHOT_MILLIS, Math::max, "streamgrid_job_last_snapshot_duration_seconds", false, 1e-3,
                    "The job's last snapshot, from its first save to its commit, slowest processor on this member"),
            new JobSeries(JobMetricNames.SNAPSHOT_COMPLETED, Math::max, "streamgrid_job_last_snapshot_timestamp_seconds", false, 1e-3,
                    "When the job's last snapshot completed"),
            new JobSeries(SinkMetricNames.ROWS_COMMITTED, SUM, "streamgrid_sink_rows_committed", true, 1,
                    "Rows the job's Cassandra sink committed from this member"),
            new JobSeries(SinkMetricNames.TRANSACTIONS_COMMITTED, SUM, "streamgrid_sink_transactions_committed", true, 1,
                    "Transactions (one per snapshot and sink processor) the job's Cassandra sink committed"),
            new JobSeries(SinkMetricNames.COMMIT_MILLIS, Math::max, "streamgrid_sink_last_commit_duration_seconds", false, 1e-3,
                    "The sink's last commit: from the snapshot's decision to the last row acknowledged"),
            new JobSeries(SinkMetricNames.WRITES_IN_FLIGHT, SUM, "streamgrid_sink_writes_in_flight", false, 1,
                    "Cassandra writes sent and not yet acknowledged"));
    private static final Map<String, JobSeries> BY_USER_METRIC = JOB_SERIES.stream()
            .collect(Collectors.toUnmodifiableMap(JobSeries::userMetric, series -> series));

    private final HazelcastInstance hazelcast;
    private final MetricsRegistry registry;

    MemberMetrics(final HazelcastInstance hazelcast) {
        this.hazelcast = hazelcast;
        this.registry = HazelcastInternals.node(hazelcast).getNodeEngine().getMetricsRegistry();
    }

    @Override
    public MetricSnapshots collect() {
        final Collected collected = new Collected();
        registry.collect(collected);
        final List<MetricSnapshot> snapshots = new ArrayList<>();
        for (final JobSeries series : JOB_SERIES) {
            final Map<String, Long> byJob = collected.byJob.get(series.userMetric());
            if (byJob == null) {
                continue;
            }
            snapshots.add(series.counter() ? counter(series.name(), series.help(), byJob, series.scale())
                    : gauge(series.name(), series.help(), byJob, series.scale()));
        }
        addMaps(snapshots);
        addSubscriptions(snapshots);
        addCluster(snapshots, collected.migrationQueueSize, collected.parkedOperations);
        return new MetricSnapshots(snapshots);
    }

    private static CounterSnapshot counter(final String name, final String help, final Map<String, Long> byJob, final double scale) {
        final CounterSnapshot.Builder builder = CounterSnapshot.builder().name(name).help(help);
        byJob.forEach((job, value) -> builder.dataPoint(counterPoint(Labels.of("job", job), value * scale)));
        return builder.build();
    }

    private static GaugeSnapshot gauge(final String name, final String help, final Map<String, Long> byJob, final double scale) {
        final GaugeSnapshot.Builder builder = GaugeSnapshot.builder().name(name).help(help);
        byJob.forEach((job, value) -> builder.dataPoint(gaugePoint(Labels.of("job", job), value * scale)));
        return builder.build();
    }

    /** Per map: entries and memory this member holds as owner and as backup, and the operations it served. */
    private void addMaps(final List<MetricSnapshot> snapshots) {
        final GaugeSnapshot.Builder entries = GaugeSnapshot.builder().name("streamgrid_map_entries")
                .help("Entries of the map on this member, as owner or as backup");
        final GaugeSnapshot.Builder memory = GaugeSnapshot.builder().name("streamgrid_map_memory_bytes")
                .help("Heap cost of the map's entries on this member, as owner or as backup");
        final CounterSnapshot.Builder puts = CounterSnapshot.builder().name("streamgrid_map_puts")
                .help("Puts (and sets) on the map's partitions this member owns");
        final CounterSnapshot.Builder gets = CounterSnapshot.builder().name("streamgrid_map_gets")
                .help("Gets on the map's partitions this member owns");
        final CounterSnapshot.Builder removes = CounterSnapshot.builder().name("streamgrid_map_removes")
                .help("Removes on the map's partitions this member owns");
        for (final DistributedObject object : hazelcast.getDistributedObjects()) {
            if (!(object instanceof IMap<?, ?> map)) {
                continue;
            }
            final LocalMapStats stats = map.getLocalMapStats();
            final Labels owned = Labels.of("map", map.getName(), "role", "owner");
            final Labels backup = Labels.of("map", map.getName(), "role", "backup");
            entries.dataPoint(gaugePoint(owned, stats.getOwnedEntryCount()));
            entries.dataPoint(gaugePoint(backup, stats.getBackupEntryCount()));
            memory.dataPoint(gaugePoint(owned, stats.getOwnedEntryMemoryCost()));
            memory.dataPoint(gaugePoint(backup, stats.getBackupEntryMemoryCost()));
            final Labels name = Labels.of("map", map.getName());
            puts.dataPoint(counterPoint(name, stats.getPutOperationCount() + stats.getSetOperationCount()));
            gets.dataPoint(counterPoint(name, stats.getGetOperationCount()));
            removes.dataPoint(counterPoint(name, stats.getRemoveOperationCount()));
        }
        snapshots.add(entries.build());
        snapshots.add(memory.build());
        snapshots.add(puts.build());
        snapshots.add(gets.build());
        snapshots.add(removes.build());
    }

    /**
     * The clients' subscriptions, from the oldest member only (the reports are cluster-wide: every
     * member would serve the same series).
     */
    private void addSubscriptions(final List<MetricSnapshot> snapshots) {
        if (!ClusterView.exportsSubscriptionsHere(hazelcast)) {
            return;
        }
        final CounterSnapshot.Builder delivered = CounterSnapshot.builder().name("streamgrid_subscription_deltas_delivered")
                .help("Deltas the subscription handed to its listener");
        final CounterSnapshot.Builder resyncs = CounterSnapshot.builder().name("streamgrid_subscription_resyncs")
                .help("Resynchronisations of the subscription (journal events overwritten before they were read, a read failed for good)");
        final CounterSnapshot.Builder overflows = CounterSnapshot.builder().name("streamgrid_subscription_overflows")
                .help("Times the subscription's buffer was full because its listener was slow (reading waited for it)");
        final GaugeSnapshot.Builder queued = GaugeSnapshot.builder().name("streamgrid_subscription_queued_deltas")
                .help("Deltas received and waiting for the listener: how far the subscription is behind");
        for (final SubscriptionReport report : ClusterView.subscriptions(hazelcast)) {
            final Labels labels = Labels.of("map", report.map(), "subscription", report.id(), "client", report.client());
            delivered.dataPoint(counterPoint(labels, report.delivered()));
            resyncs.dataPoint(counterPoint(labels, report.resyncs()));
            overflows.dataPoint(counterPoint(labels, report.overflows()));
            queued.dataPoint(gaugePoint(labels, report.queued()));
        }
        snapshots.add(delivered.build());
        snapshots.add(resyncs.build());
        snapshots.add(overflows.build());
        snapshots.add(queued.build());
    }

    private void addCluster(final List<MetricSnapshot> snapshots, final long migrationQueueSize, final long parkedOperations) {
        final int owned = ClusterView.partitionsByMember(hazelcast).getOrDefault(hazelcast.getCluster().getLocalMember(), 0);
        snapshots.add(single("streamgrid_member_partitions_owned", "Partitions this member owns", owned));
        snapshots.add(single("streamgrid_member_migrations_queued", "Partition migrations queued on this member",
                migrationQueueSize));
        snapshots.add(single("streamgrid_member_parked_operations",
                "Operations parked on this member waiting for a condition (long-poll reads, locks); StreamGrid's own reads never park",
                parkedOperations));
        snapshots.add(single("streamgrid_cluster_members", "Members of the cluster as this member sees it",
                hazelcast.getCluster().getMembers().size()));
        snapshots.add(single("streamgrid_cluster_safe", "1 when every partition's backups are in sync and nothing migrates",
                hazelcast.getPartitionService().isClusterSafe() ? 1 : 0));
    }

    private static GaugeSnapshot single(final String name, final String help, final double value) {
        return GaugeSnapshot.builder().name(name).help(help).dataPoint(gaugePoint(Labels.EMPTY, value)).build();
    }

    private static GaugeSnapshot.GaugeDataPointSnapshot gaugePoint(final Labels labels, final double value) {
        return GaugeSnapshot.GaugeDataPointSnapshot.builder().labels(labels).value(value).build();
    }

    private static CounterSnapshot.CounterDataPointSnapshot counterPoint(final Labels labels, final double value) {
        return CounterSnapshot.CounterDataPointSnapshot.builder().labels(labels).value(value).build();
    }

    /** Receives one collection of the member's registry: our user metrics per job, the migration queue. */
    private static final class Collected implements MetricsCollector {
        /** User metric → job name → combined value (sorted, so the output's order is stable). */
        final Map<String, Map<String, Long>> byJob = new TreeMap<>();
        long migrationQueueSize;
        long parkedOperations;

        @Override
        public void collectLong(final MetricDescriptor descriptor, final long value) {
            final String metric = descriptor.metric();
            if (metric == null) {
                return;
            }
            final JobSeries series = BY_USER_METRIC.get(metric);
            if (series != null && "true".equals(descriptor.tagValue(MetricTags.USER))) {
                final String job = descriptor.tagValue(MetricTags.JOB_NAME) != null
                        ? descriptor.tagValue(MetricTags.JOB_NAME) : descriptor.tagValue(MetricTags.JOB);
                byJob.computeIfAbsent(metric, m -> new TreeMap<>()).merge(job, value, (a, b) -> series.combine().applyAsLong(a, b));
            } else if ("partitions".equals(descriptor.prefix()) && "migrationQueueSize".equals(metric)) {
                migrationQueueSize = value;
            } else if ("operation.parker".equals(descriptor.prefix()) && "totalParkedOperationCount".equals(metric)) {
                parkedOperations = value;
            }
        }

        @Override
        public void collectDouble(final MetricDescriptor descriptor, final double value) {
        }

        @Override
        public void collectException(final MetricDescriptor descriptor, final Exception e) {
        }

        @Override
        public void collectNoValue(final MetricDescriptor descriptor) {
        }
    }
}
