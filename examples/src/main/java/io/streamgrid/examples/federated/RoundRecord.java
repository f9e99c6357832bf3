package io.streamgrid.examples.federated;

/**
 * A closed round: the devices whose updates made it, in the order the aggregator took them, with
 * their example counts; how it closed ({@code QUORUM} or {@code DEADLINE}; a deadline with no
 * update leaves the model as it was); the standard deviation of the noise added per coordinate
 * (0 without); and the updates refused while it was open (late, repeated, or from devices not chosen).
 */
public record RoundRecord(long round, long[] devices, long[] samples, String closedBy, double noiseStd, long refused) {
}
