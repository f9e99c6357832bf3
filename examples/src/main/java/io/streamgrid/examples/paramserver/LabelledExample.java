package io.streamgrid.examples.paramserver;

/** An example of the synthetic stream: its number in it, which worker learns it, when, its features (ids ≥ 1) and label. */
public record LabelledExample(long number, long worker, long time, int[] features, boolean label) {
    /** The features with the bias (feature 0) first, as the workers read them. */
    public int[] withBias() {
        final int[] all = new int[features.length + 1];
        System.arraycopy(features, 0, all, 1, features.length);
        return all;
    }
}
