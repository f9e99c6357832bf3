/**
 * Exactly-once output to Apache Cassandra: a Jet sink that stages the rows of each snapshot epoch
 * and commits them only when the Jet snapshot covering them has completed (two-phase commit), the
 * schema helper, and the launcher of a real Cassandra server for tests, the demo and perf.
 * Also the bound on the snapshot entries every StreamGrid processor writes ({@link
 * io.streamgrid.sink.SnapshotEntries}).
 *
 * <p>The guarantees are proven against a real Cassandra server: {@code CassandraSinkTest} here,
 * and grid-node's {@code CassandraExactlyOnceTest} and {@code StatePersistenceTest} with member
 * processes killed and Cassandra stopped mid-commit.
 */
package io.streamgrid.sink;
