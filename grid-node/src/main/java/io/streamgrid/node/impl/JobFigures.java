package io.streamgrid.node.impl;

import com.hazelcast.jet.Job;
import com.hazelcast.jet.core.metrics.JobMetrics;
import com.hazelcast.jet.core.metrics.Measurement;
import io.streamgrid.jobs.pipeline.JobMetricNames;

import com.hazelcast.jet.core.metrics.MetricTags;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongBinaryOperator;

/**
 * A job's cluster-wide figures as Jet last collected its metrics (every few seconds, from every
 * member; {@code hazelcast.metrics.collection.frequency}), from the user metrics our processors
 * publish: counts since the current execution started, the lowest watermark, the slowest
 * processor's last snapshot. 0 where Jet has no value yet.
 *
 * @param collectedAtMs when Jet collected them: rates between two figures are the job's rates
 * @param recordsBehind records in the job's logs it has not read yet (its lag in records)
 */
public record JobFigures(long collectedAtMs, long eventsIn, long late, long rejected, long results, long watermarkMs,
                         long snapshotMillis, long recordsBehind) {

    /**
     * What "watermark lag" means wherever StreamGrid shows it ({@code top}, the status page): how far
     * the job's watermark — the event time up to which its windows and timers are complete — trails
     * the clock when Jet collected the figures. Seconds for a stream on the clock; for a history
     * (events of past dates) its distance into the past.
     */
    public static final String WATERMARK_LAG_MEANING = "clock minus watermark, the event time up to which results are complete";

    /** The watermark lag in milliseconds ({@link #WATERMARK_LAG_MEANING}), or -1 while the job has no watermark yet. */
    public long watermarkLagMs() {
        return watermarkMs == 0 ? -1 : collectedAtMs - watermarkMs;
    }

    /** The job's figures, or null before Jet has collected any of its metrics. */
    public static JobFigures of(final Job job) {
        return of(job.getMetrics());
    }

    /** The figures in a job's {@code metrics} (one fetch of them serves this and {@link #processorWatermarks}), or null when none were collected. */
    public static JobFigures of(final JobMetrics metrics) {
        long collected = 0;
        for (final Measurement measurement : metrics.get(JobMetricNames.EVENTS_IN)) {
            collected = Math.max(collected, measurement.timestamp());
        }
        if (collected == 0) {
            return null;
        }
        return new JobFigures(collected, combined(metrics, JobMetricNames.EVENTS_IN, Long::sum),
                combined(metrics, JobMetricNames.LATE_EVENTS, Long::sum), combined(metrics, JobMetricNames.REJECTED_RECORDS, Long::sum),
                combined(metrics, JobMetricNames.RESULTS, Long::sum), combined(metrics, JobMetricNames.WATERMARK, JobFigures::lowestSet),
                combined(metrics, JobMetricNames.SNAPSHOT_MILLIS, Math::max),
                combined(metrics, JobMetricNames.RECORDS_BEHIND, Long::sum));
    }

    /** The sum of {@code metric} over the job's processors as Jet last collected it; 0 before it has. */
    public static long total(final Job job, final String metric) {
        return combined(job.getMetrics(), metric, Long::sum);
    }

    /**
     * Each processor's watermark in a job's {@code metrics}, lowest first (a processor whose log
     * partitions are stuck or idle shows at the top): "vertex#processor @ member address" and its
     * watermark; processors without a watermark yet are left out.
     */
    public static List<Map.Entry<String, Long>> processorWatermarks(final JobMetrics metrics) {
        final List<Map.Entry<String, Long>> watermarks = new ArrayList<>();
        for (final Measurement m : metrics.get(JobMetricNames.WATERMARK)) {
            if (m.value() != 0) {
                watermarks.add(Map.entry(m.tag(MetricTags.VERTEX) + "#" + m.tag(MetricTags.PROCESSOR) + " @ " + m.tag(MetricTags.ADDRESS),
                        m.value()));
            }
        }
        watermarks.sort(Map.Entry.comparingByValue());
        return watermarks;
    }

    /** Events in per second from {@code earlier} to these figures; a count that went down (a restart) counts from 0. */
    public double eventsPerSecondSince(final JobFigures earlier) {
        final double seconds = (collectedAtMs - earlier.collectedAtMs) / 1000.0;
        if (seconds <= 0) {
            return 0;
        }
        final long delta = eventsIn >= earlier.eventsIn ? eventsIn - earlier.eventsIn : eventsIn;
        return delta / seconds;
    }

    private static long combined(final JobMetrics metrics, final String name, final LongBinaryOperator combine) {
        long result = 0;
        boolean first = true;
        for (final Measurement measurement : metrics.get(name)) {
            result = first ? measurement.value() : combine.applyAsLong(result, measurement.value());
            first = false;
        }
        return result;
    }

    /** 0 is "not set" (a processor with no watermark yet); otherwise the lowest. */
    static long lowestSet(final long a, final long b) {
        if (a == 0) {
            return b;
        }
        return b == 0 ? a : Math.min(a, b);
    }
}
