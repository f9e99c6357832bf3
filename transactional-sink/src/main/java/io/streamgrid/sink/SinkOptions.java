package io.streamgrid.sink;

import java.io.Serializable;
import java.util.Objects;

/**
 * Tuning of the Cassandra sink.
 *
 * @param maxInFlight        writes in flight per processor before it waits (back-pressure into Jet)
 * @param snapshotEntryBytes the largest snapshot entry a prepared transaction is cut into; 0 (the
 *                           default): the member's setting ({@link SnapshotEntries#maxBytes})
 * @param beforeCommit       runs before each commit of a prepared transaction ({@link BeforeCommit#NONE} by default)
 */
public record SinkOptions(int maxInFlight, int snapshotEntryBytes, BeforeCommit beforeCommit) implements Serializable {
    public SinkOptions {
        if (maxInFlight < 1 || maxInFlight > 10_000) {
            throw new IllegalArgumentException("maxInFlight must be 1 to 10000, was " + maxInFlight);
        }
        if (!SnapshotEntries.allowed(snapshotEntryBytes)) {
            throw new IllegalArgumentException("snapshotEntryBytes must be 0 (the member's setting) or " + SnapshotEntries.MIN_BYTES
                    + " to " + SnapshotEntries.LIMIT_BYTES + ", was " + snapshotEntryBytes);
        }
        Objects.requireNonNull(beforeCommit, "beforeCommit (BeforeCommit.NONE for nothing)");
    }

    public static SinkOptions defaults() {
        return new SinkOptions(128, 0, BeforeCommit.NONE);
    }

    public SinkOptions withMaxInFlight(final int writes) {
        return new SinkOptions(writes, snapshotEntryBytes, beforeCommit);
    }

    public SinkOptions withSnapshotEntryBytes(final int bytes) {
        return new SinkOptions(maxInFlight, bytes, beforeCommit);
    }

    public SinkOptions withBeforeCommit(final BeforeCommit hook) {
        return new SinkOptions(maxInFlight, snapshotEntryBytes, hook);
    }
}
