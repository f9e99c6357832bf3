/**
 * The event model, the Chronicle Queue ingest log and its Jet source, event-time windowing with
 * allowed lateness and late side output, and the named Jet jobs.
 *
 * <p>Not built yet: see the event-time pipelines issue.
 */
package io.streamgrid.jobs;
