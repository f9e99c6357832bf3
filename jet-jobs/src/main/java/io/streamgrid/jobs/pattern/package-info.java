/**
 * Pattern detection (complex event processing) on the keyed job API: declare {@link io.streamgrid.jobs.pattern.Pattern}s
 * — steps over one or several co-partitioned schemas, a condition per step over the event and the
 * events matched before it, a time bound — and {@link io.streamgrid.jobs.pattern.PatternJobs#job}
 * compiles them into a keyed job whose state (partial matches) and timers are in
 * Jet snapshots, so alerts are exactly-once. The matching rules are on {@link io.streamgrid.jobs.pattern.Pattern}.
 */
package io.streamgrid.jobs.pattern;
