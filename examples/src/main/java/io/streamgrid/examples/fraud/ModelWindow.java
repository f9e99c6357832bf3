package io.streamgrid.examples.fraud;

/**
 * A model's quality over one sliding window of event time ({@link ModelMonitoringJob}): the outcomes
 * whose label arrived in {@code [start, end)} and the predictions made in it.
 *
 * @param outcomes    labels in the window whose payment a published version scored
 * @param accuracy    share of those whose flag (score ≥ threshold) matched the label; NaN without outcomes
 * @param logLoss     mean log loss of their scores; NaN without outcomes
 * @param fraudRate   share of those labels that are fraud (the label distribution); NaN without outcomes
 * @param predictions payments scored in the window (by any version)
 * @param flaggedRate share of those flagged; NaN without predictions
 * @param meanScoringLagMs mean scoring lag of those predictions (wall clock at scoring − event time); NaN without
 * @param maxScoringLagMs  the largest of them; 0 without
 * @param corrected   whether late feedback changed the window after it was first written
 */
public record ModelWindow(String model, long start, long end, long outcomes, double accuracy, double logLoss, double fraudRate,
                          long predictions, double flaggedRate, double meanScoringLagMs, long maxScoringLagMs, boolean corrected) {
}
