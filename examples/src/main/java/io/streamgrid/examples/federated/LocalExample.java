package io.streamgrid.examples.federated;

/** One of a device's own examples: its features (the first, the bias, 1) and label. Never leaves the device. */
public record LocalExample(double[] features, boolean label) {
}
