package io.streamgrid.sink;

import java.io.Serializable;

/**
 * Tuning and test hooks of the Cassandra sink.
 *
 * @param maxInFlight        writes in flight per processor before it waits (back-pressure into Jet)
 * @param commitBarrierDir   test hook, null in production: while {@code <dir>/pause} exists, a
 *                           processor about to commit a prepared transaction writes
 *                           {@code <dir>/reached-<processor>} and waits — so a test can stop
 *                           Cassandra between prepare and commit
 */
public record SinkOptions(int maxInFlight, String commitBarrierDir) implements Serializable {
    public SinkOptions {
        if (maxInFlight < 1 || maxInFlight > 10_000) {
            throw new IllegalArgumentException("maxInFlight must be 1 to 10000, was " + maxInFlight);
        }
    }

    public static SinkOptions defaults() {
        return new SinkOptions(128, null);
    }

    public SinkOptions withCommitBarrier(final String dir) {
        return new SinkOptions(maxInFlight, dir);
    }
}
