/**
 * Exactly-once output to Apache Cassandra: a Jet sink that stages the rows of each snapshot epoch
 * and commits them only when the Jet snapshot covering them has completed (two-phase commit), the
 * schema helper, and the launcher of a real Cassandra server for tests, the demo and perf.
 *
 * <p>Not built yet: see the transactional-sink issue. Nothing in this package claims a guarantee
 * until its tests against a real Cassandra exist.
 */
package io.streamgrid.sink;
