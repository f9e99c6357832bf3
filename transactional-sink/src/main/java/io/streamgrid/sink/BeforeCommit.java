package io.streamgrid.sink;

import java.io.Serializable;

/**
 * Runs on the member just before a sink processor commits a prepared transaction — after the
 * snapshot that decided it completed, before its rows are written to Cassandra. A test that must
 * break something at exactly that point (stop Cassandra between prepare and commit) holds the
 * commit here; nothing else needs it, and the default does nothing.
 *
 * <p>Serialized with the job to the members: an implementation must be on their class path. It runs
 * on the processor's thread; while it runs that processor commits nothing. An exception fails the
 * job, which is then suspended with its snapshot (the transaction is committed on resume).
 */
@FunctionalInterface
public interface BeforeCommit extends Serializable {
    /** Does nothing. */
    BeforeCommit NONE = (processor, transaction) -> { };

    /**
     * Called before processor {@code processor} (its global index) commits {@code transaction}.
     *
     * @throws Exception to fail the commit, and so the job
     */
    void beforeCommit(int processor, String transaction) throws Exception;
}
