package io.streamgrid.sink;

/** The Jet user metrics the exactly-once Cassandra sink publishes, per sink processor. */
public final class SinkMetricNames {
    public static final String ROWS_COMMITTED = "streamgridCassandraRowsCommitted";
    public static final String TRANSACTIONS_COMMITTED = "streamgridCassandraTxnsCommitted";
    /** The last commit: from the snapshot's decision to the last row acknowledged. */
    public static final String COMMIT_MILLIS = "streamgridCassandraCommitMillis";
    public static final String WRITES_IN_FLIGHT = "streamgridCassandraWritesInFlight";

    private SinkMetricNames() {
    }
}
