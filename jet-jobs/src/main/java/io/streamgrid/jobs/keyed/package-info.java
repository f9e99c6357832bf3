/**
 * Your own keyed jobs: per-key logic over the events of your own {@link io.streamgrid.jobs.schema.EventSchema}s,
 * with typed state and event-time timers held in Jet snapshots, so results are exactly-once.
 *
 * <p>A job is a {@link io.streamgrid.jobs.keyed.KeyedJob}: a name, the schema it reads, a
 * {@link io.streamgrid.jobs.keyed.KeyedFunction} (what happens per event and per timer), a
 * {@link io.streamgrid.jobs.keyed.StateCodec} for the per-key state and a
 * {@link io.streamgrid.jobs.keyed.TimePolicy} (disorder, lateness, max future, idle timeout).
 * {@link io.streamgrid.jobs.Jobs#submit} runs it. Outputs are writes to named maps,
 * which clients read, follow with continuous queries, or bind to Cassandra tables.
 */
package io.streamgrid.jobs.keyed;
