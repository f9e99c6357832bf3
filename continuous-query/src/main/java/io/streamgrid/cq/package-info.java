/**
 * Member side of continuous queries: predicates evaluated on the members, per-partition sequence
 * numbers, gap detection and recovery, and the wire types shared with clients.
 *
 * <p>Not built yet: see the continuous-query issue.
 */
package io.streamgrid.cq;
