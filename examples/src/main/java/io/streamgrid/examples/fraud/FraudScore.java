package io.streamgrid.examples.fraud;

/**
 * A payment's score ({@link Payments#SCORES}, key: txn).
 *
 * @param modelVersion the version that scored it; 0 before any version was published (weights all 0: score 0.5)
 * @param flagged      whether the score reached the job's threshold (never before a version was published)
 */
public record FraudScore(long user, long txn, long ts, double amount, double score, long modelVersion, boolean flagged) {
}
