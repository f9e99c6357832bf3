package io.streamgrid.examples.fraud;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What {@link ModelMonitoringJob} must write once the scoring job's input has ended, computed apart
 * from it from the feedback log as read ({@link FeedbackLog}): the figures of every window that
 * holds feedback, and the drift alerts among them, by the rules its documentation states. The end
 * travels through the feedback log (its writers, the scoring job's partitions, announce it), so the
 * monitoring job's watermark reaches the end of time: every window is written, final and settled.
 */
public final class MonitoringOracle {
    private final Map<String, ModelWindow> windows = new TreeMap<>();
    private final Set<String> alerts = new TreeSet<>();

    /** The windows and alerts of {@code model} over {@code entries} (feedback as read, all of it processed, the input ended). */
    public MonitoringOracle(final List<FeedbackLog.Entry> entries, final ModelMonitoringJob.Settings settings, final String model) {
        final long slide = settings.slideMs();
        final long newest = entries.stream().mapToLong(FeedbackLog.Entry::ts).max().orElseThrow();
        final long lastEnd = Math.floorDiv(newest, slide) * slide + settings.windowMs(); // the last window holding the newest
        final long first = Math.floorDiv(entries.stream().mapToLong(FeedbackLog.Entry::ts).min().orElseThrow(), slide) * slide + slide;
        int baselineWindows = 0;
        double accuracySum = 0;
        double rateSum = 0;
        for (long end = first; end <= lastEnd; end += slide) {
            final long from = end - settings.windowMs();
            final long to = end;
            final List<FeedbackLog.Entry> in = entries.stream().filter(e -> e.ts() >= from && e.ts() < to).toList();
            if (in.isEmpty()) {
                continue;
            }
            long outcomes = 0;
            long correct = 0;
            long frauds = 0;
            double logLoss = 0;
            long predictions = 0;
            long flagged = 0;
            long lagSum = 0;
            long lagMax = 0;
            for (final FeedbackLog.Entry e : in) {
                final boolean flag = e.modelVersion() > 0 && e.score() >= settings.threshold();
                if (e.kind() == Feedback.PREDICTION) {
                    predictions++;
                    flagged += flag ? 1 : 0;
                    lagSum += e.scoringLagMs();
                    lagMax = Math.max(lagMax, e.scoringLagMs());
                } else if (e.modelVersion() > 0) {
                    outcomes++;
                    correct += flag == e.fraud() ? 1 : 0;
                    frauds += e.fraud() ? 1 : 0;
                    final double p = Math.min(1 - 1e-15, Math.max(1e-15, e.score()));
                    logLoss += -(e.fraud() ? Math.log(p) : Math.log(1 - p));
                }
            }
            final String key = Payments.windowKey(model, end);
            final double accuracy = (double) correct / outcomes;
            final double rate = (double) frauds / outcomes;
            windows.put(key, new ModelWindow(model, from, end, outcomes, accuracy, logLoss / outcomes, rate,
                    predictions, (double) flagged / predictions, (double) lagSum / predictions, lagMax, false));
            if (outcomes < settings.minOutcomes()) {
                continue; // drift is judged on windows of enough outcomes only
            }
            if (baselineWindows < settings.baselineWindows()) {
                baselineWindows++;
                accuracySum += accuracy;
                rateSum += rate;
            } else if (accuracy < accuracySum / baselineWindows - settings.maxAccuracyDrop()
                    || Math.abs(rate - rateSum / baselineWindows) > settings.maxRateShift()) {
                alerts.add(key);
            }
        }
    }

    /** Per window key (model@end): the figures of every window the job writes, once all feedback is in. */
    public Map<String, ModelWindow> windows() {
        return windows;
    }

    /** The keys of the windows that get a drift alert. */
    public Set<String> alerts() {
        return alerts;
    }
}
