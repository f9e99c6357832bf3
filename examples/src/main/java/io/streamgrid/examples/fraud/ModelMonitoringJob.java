package io.streamgrid.examples.fraud;

import io.streamgrid.jobs.keyed.KeyedJob;
import io.streamgrid.jobs.keyed.StateCodec;
import io.streamgrid.jobs.keyed.StreamGridJob;
import io.streamgrid.jobs.keyed.StringKeyContext;
import io.streamgrid.jobs.keyed.StringKeyedFunction;
import io.streamgrid.jobs.keyed.TimePolicy;
import io.streamgrid.jobs.schema.SchemaRecord;
import org.agrona.collections.Long2ObjectHashMap;

import java.io.DataInput;
import java.io.DataOutput;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Model monitoring on the public job API: keyed by model over the feedback log, the model's quality
 * over sliding windows of event time ({@code windowMs} long, one every {@code slideMs}) — accuracy,
 * log loss and fraud rate of the labels that arrived in the window (payments a published version
 * scored), predictions, the share flagged and the scoring lag (as the scoring job recorded it in
 * each prediction) — written to {@link Payments#MONITORING} when the
 * watermark passes the window's end. Late feedback (within the allowed lateness)
 * corrects a written window at once; later feedback goes to the job's late map. The scoring job's
 * partitions append feedback at their own pace (a backlog after a restore spreads them most); the
 * feedback log carries their watermarks, and this job's watermark is the slowest partition's — so
 * one partition running ahead makes no other's feedback late, and when the scoring job's input ends
 * every window is written and settled.
 *
 * <p>Drift is judged on settled windows — once the watermark is the allowed lateness past a
 * window's end, no feedback can change it — so the judgement is a function of the log alone. The
 * first {@code baselineWindows} settled windows with at least {@code minOutcomes} outcomes set the
 * baseline (their mean accuracy and fraud rate); every later such window whose accuracy is more
 * than {@code maxAccuracyDrop} below the baseline's, or whose fraud rate is more than
 * {@code maxRateShift} away from it, gets a {@link DriftAlert} in {@link Payments#DRIFT_ALERTS}.
 *
 * <p>The scoring lag comes from the feedback log as recorded (a wall-clock figure taken when the
 * payment was scored), so the windows stay a function of the log.
 */
public final class ModelMonitoringJob implements StreamGridJob {
    public static final String NAME = "model-monitoring";
    static final long ALLOWED_DISORDER_MS = 30_000;

    private final Settings settings;

    /**
     * Settings of the windows and the drift rule.
     *
     * @param allowedLatenessMs how late feedback may be and still correct its windows; also how long
     *                          after its end a window settles (a multiple of the slide)
     */
    public record Settings(long windowMs, long slideMs, long allowedLatenessMs, double threshold, int baselineWindows, int minOutcomes,
                           double maxAccuracyDrop, double maxRateShift) implements java.io.Serializable {
        public Settings {
            if (slideMs < 1 || windowMs < slideMs || windowMs % slideMs != 0 || allowedLatenessMs < 0 || allowedLatenessMs % slideMs != 0
                    || baselineWindows < 1 || minOutcomes < 1
                    || !(maxAccuracyDrop > 0) || !(maxRateShift > 0) || !(threshold >= 0 && threshold <= 1)) {
                throw new IllegalArgumentException("monitoring settings out of range (window and lateness multiples of the "
                        + "slide, counts at least 1, bounds positive, threshold 0-1): window " + windowMs + ", slide " + slideMs
                        + ", lateness " + allowedLatenessMs + ", threshold " + threshold + ", baseline windows " + baselineWindows
                        + ", min outcomes " + minOutcomes + ", bounds " + maxAccuracyDrop + ", " + maxRateShift);
            }
        }
    }

    /** 5-minute windows sliding by a minute, 5 minutes' lateness, threshold 0.5, baseline of 5 windows of 100+ outcomes, bounds 5 points. */
    public ModelMonitoringJob() {
        this(new Settings(300_000, 60_000, 300_000, 0.5, 5, 100, 0.05, 0.05));
    }

    public ModelMonitoringJob(final Settings settings) {
        this.settings = settings;
    }

    @Override
    public KeyedJob<?> job() {
        return KeyedJob.<Monitor>builder(NAME, Payments.FEEDBACK).stringKeyed(new Watch(settings)).state(new MonitorCodec())
                .time(TimePolicy.of(ALLOWED_DISORDER_MS, settings.allowedLatenessMs()))
                .writes(Payments.MONITORING, Payments.DRIFT_ALERTS).build();
    }

    /** Per slide-long bucket of event time: outcomes, correct, log-loss sum, frauds, predictions, flagged, scoring lag sum and max. */
    private static final int OUTCOMES = 0;
    private static final int CORRECT = 1;
    private static final int LOG_LOSS = 2;
    private static final int FRAUDS = 3;
    private static final int PREDICTIONS = 4;
    private static final int FLAGGED = 5;
    private static final int LAG_SUM = 6;
    private static final int LAG_MAX = 7;
    private static final int FIELDS = 8;

    /** A model's monitoring state: buckets by start time, the baseline so far. */
    static final class Monitor {
        final Long2ObjectHashMap<double[]> buckets = new Long2ObjectHashMap<>();
        int baselineWindows;
        double baselineAccuracySum;
        double baselineRateSum;
    }

    static final class Watch implements StringKeyedFunction<Monitor> {
        private final Settings s;

        Watch(final Settings settings) {
            this.s = settings;
        }

        @Override
        public void onEvent(final SchemaRecord feedback, final StringKeyContext<Monitor> context) {
            Monitor monitor = context.state();
            if (monitor == null) {
                monitor = new Monitor();
                context.setState(monitor);
            }
            final long time = context.time();
            final long bucketStart = Math.floorDiv(time, s.slideMs()) * s.slideMs();
            final double[] bucket = monitor.buckets.computeIfAbsent(bucketStart, b -> new double[FIELDS]);
            final double score = feedback.getDouble(Feedback.SCORE);
            final boolean scoredByAModel = feedback.getLong(Feedback.VERSION) > 0;
            final boolean flagged = scoredByAModel && score >= s.threshold();
            if (feedback.getEnumOrdinal(Feedback.KIND) == Feedback.PREDICTION) {
                bucket[PREDICTIONS]++;
                bucket[FLAGGED] += flagged ? 1 : 0;
                final long lag = feedback.getLong(Feedback.SCORING_LAG);
                bucket[LAG_SUM] += lag;
                bucket[LAG_MAX] = Math.max(bucket[LAG_MAX], lag);
            } else if (scoredByAModel) {
                final boolean fraud = feedback.getBoolean(Feedback.FRAUD);
                final double p = Math.min(1 - 1e-15, Math.max(1e-15, score));
                bucket[OUTCOMES]++;
                bucket[CORRECT] += flagged == fraud ? 1 : 0;
                bucket[LOG_LOSS] -= fraud ? Math.log(p) : Math.log(1 - p);
                bucket[FRAUDS] += fraud ? 1 : 0;
            }
            // The windows holding this bucket end at bucketStart + slide, ... + window; each settles the lateness later.
            for (long end = bucketStart + s.slideMs(); end <= bucketStart + s.windowMs(); end += s.slideMs()) {
                if (context.watermark() != Long.MIN_VALUE && end <= context.watermark()) {
                    write(monitor, end, true, context); // written already: corrected now
                } else {
                    context.registerTimer(end);
                }
                context.registerTimer(end + s.allowedLatenessMs());
            }
        }

        /** {@code time} ends a window (written now) and settles the window that ended the lateness before (judged now). */
        @Override
        public void onTimer(final long time, final StringKeyContext<Monitor> context) {
            final Monitor monitor = context.state();
            if (hasData(monitor, time)) {
                write(monitor, time, false, context);
            }
            final long settled = time - s.allowedLatenessMs();
            if (hasData(monitor, settled)) {
                judge(monitor, window(monitor, settled, false, context.stringKey()), context); // as last written
            }
            // Buckets of windows settled by now: no feedback can reach them, no window needs them.
            final long keepFrom = settled - s.windowMs() + s.slideMs();
            final List<Long> old = new ArrayList<>();
            monitor.buckets.keySet().forEach(start -> {
                if (start < keepFrom) {
                    old.add(start);
                }
            });
            old.forEach(monitor.buckets::remove);
        }

        private boolean hasData(final Monitor monitor, final long end) {
            for (long start = end - s.windowMs(); start < end; start += s.slideMs()) {
                if (monitor.buckets.containsKey(start)) {
                    return true;
                }
            }
            return false;
        }

        /** Writes the window ending at {@code end} as its buckets stand. */
        private void write(final Monitor monitor, final long end, final boolean corrected, final StringKeyContext<Monitor> context) {
            context.put(Payments.MONITORING, Payments.windowKey(context.stringKey(), end),
                    window(monitor, end, corrected, context.stringKey()));
        }

        private ModelWindow window(final Monitor monitor, final long end, final boolean corrected, final String model) {
            final double[] sum = new double[FIELDS];
            for (long start = end - s.windowMs(); start < end; start += s.slideMs()) {
                final double[] bucket = monitor.buckets.get(start);
                if (bucket != null) {
                    for (int f = 0; f < FIELDS; f++) {
                        sum[f] = f == LAG_MAX ? Math.max(sum[f], bucket[f]) : sum[f] + bucket[f];
                    }
                }
            }
            final double n = sum[OUTCOMES];
            return new ModelWindow(model, end - s.windowMs(), end, (long) n, sum[CORRECT] / n, sum[LOG_LOSS] / n, sum[FRAUDS] / n,
                    (long) sum[PREDICTIONS], sum[FLAGGED] / sum[PREDICTIONS], sum[LAG_SUM] / sum[PREDICTIONS], (long) sum[LAG_MAX],
                    corrected);
        }

        /** A settled window: part of the baseline while that is forming, else checked against it. */
        private void judge(final Monitor monitor, final ModelWindow window, final StringKeyContext<Monitor> context) {
            if (window.outcomes() < s.minOutcomes()) {
                return;
            }
            if (monitor.baselineWindows < s.baselineWindows()) {
                monitor.baselineWindows++;
                monitor.baselineAccuracySum += window.accuracy();
                monitor.baselineRateSum += window.fraudRate();
                return;
            }
            final double baselineAccuracy = monitor.baselineAccuracySum / monitor.baselineWindows;
            final double baselineRate = monitor.baselineRateSum / monitor.baselineWindows;
            final List<String> reasons = new ArrayList<>(2);
            if (window.accuracy() < baselineAccuracy - s.maxAccuracyDrop()) {
                reasons.add(String.format("accuracy %.3f is more than %.3f below the baseline %.3f", window.accuracy(),
                        s.maxAccuracyDrop(), baselineAccuracy));
            }
            if (Math.abs(window.fraudRate() - baselineRate) > s.maxRateShift()) {
                reasons.add(String.format("fraud rate %.3f is more than %.3f from the baseline %.3f", window.fraudRate(),
                        s.maxRateShift(), baselineRate));
            }
            if (!reasons.isEmpty()) {
                context.put(Payments.DRIFT_ALERTS, Payments.windowKey(window.model(), window.end()), new DriftAlert(window.model(),
                        window.start(), window.end(), window.accuracy(), baselineAccuracy, window.fraudRate(), baselineRate,
                        String.join("; ", reasons)));
            }
        }
    }

    static final class MonitorCodec implements StateCodec<Monitor> {
        private static final int FORMAT = 1;

        @Override
        public void write(final Monitor monitor, final DataOutput out) throws IOException {
            out.writeByte(FORMAT);
            out.writeInt(monitor.baselineWindows);
            out.writeDouble(monitor.baselineAccuracySum);
            out.writeDouble(monitor.baselineRateSum);
            out.writeInt(monitor.buckets.size());
            final Long2ObjectHashMap<double[]>.EntryIterator entries = monitor.buckets.entrySet().iterator();
            while (entries.hasNext()) {
                entries.next();
                out.writeLong(entries.getLongKey());
                for (final double v : entries.getValue()) {
                    out.writeDouble(v);
                }
            }
        }

        @Override
        public Monitor read(final DataInput in) throws IOException {
            final int format = in.readByte();
            if (format != FORMAT) {
                throw new IOException("monitoring state of format " + format + ", this build reads " + FORMAT);
            }
            final Monitor monitor = new Monitor();
            monitor.baselineWindows = in.readInt();
            monitor.baselineAccuracySum = in.readDouble();
            monitor.baselineRateSum = in.readDouble();
            final int buckets = in.readInt();
            for (int b = 0; b < buckets; b++) {
                final long start = in.readLong();
                final double[] values = new double[FIELDS];
                for (int f = 0; f < FIELDS; f++) {
                    values[f] = in.readDouble();
                }
                monitor.buckets.put(start, values);
            }
            return monitor;
        }
    }
}
