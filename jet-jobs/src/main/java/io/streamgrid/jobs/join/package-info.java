/**
 * Joins of two event streams by key — an interval join (events within a time bound of each other)
 * and a tumbling-window join — and re-keying, so that streams keyed differently can meet:
 * {@link io.streamgrid.jobs.join.StreamJoin}. Built on the keyed job API; the events waiting for a
 * partner are keyed state in Jet snapshots, so every pair is made exactly once.
 */
package io.streamgrid.jobs.join;
