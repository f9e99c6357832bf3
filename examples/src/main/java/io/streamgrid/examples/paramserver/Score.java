package io.streamgrid.examples.paramserver;

/**
 * A request scored with the model as the server had published it ({@link ScoringJob}): the
 * probability of a positive label, and which model that was — {@code modelUpdates}, the updates
 * the shards read held together (each shard's version summed: the model's version), and in
 * synchronous training {@code round}, the rounds every shard read had taken (0 otherwise).
 */
public record Score(long request, double probability, long modelUpdates, long round) {
}
