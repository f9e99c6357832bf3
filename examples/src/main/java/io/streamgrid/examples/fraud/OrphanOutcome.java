package io.streamgrid.examples.fraud;

/** An outcome the scoring job could not pair with a payment ({@link Payments#ORPHAN_OUTCOMES}), and why. */
public record OrphanOutcome(long user, long txn, long ts, boolean fraud, String reason) {
}
