package io.streamgrid.examples.federated;

/**
 * The global model as the aggregator published it: round {@code round} is open, its weights the
 * model after the rounds before; {@code cohort} the devices chosen for it (ascending), and with
 * secure aggregation their public keys ({@code keys}, in the same order; empty otherwise). A device
 * in the cohort trains from {@code weights} and submits an update for {@code round}.
 */
public record GlobalModel(String model, long round, double[] weights, long[] cohort, String[] keys) {
    /** Whether {@code device} was chosen for the open round. */
    public boolean chose(final long device) {
        return java.util.Arrays.binarySearch(cohort, device) >= 0;
    }
}
