package io.streamgrid.examples.fraud;

/**
 * A published version of a model's weights ({@link Payments#MODELS}, {@link Payments#MODEL_VERSIONS}).
 *
 * @param labels      labels learnt from when it was published
 * @param publishedAt event time of the label that completed it
 */
public record ModelVersion(String model, long version, double[] weights, long labels, long publishedAt) {
}
