package io.streamgrid.examples.fraud;

/**
 * A trainer's progress ({@link Payments#TRAINING}): labels learnt, the last version published, and
 * the weights after the last label (ahead of that version by the labels since).
 */
public record TrainingStatus(String model, long labels, long version, double[] weights) {
}
