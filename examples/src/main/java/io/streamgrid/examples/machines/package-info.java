/**
 * The machine-health example: a fleet's temperature, pressure and vibration readings (three
 * schemas co-partitioned by machine) and maintenance patterns over them, detected by a pattern job
 * ({@link io.streamgrid.jobs.pattern}) — written only against StreamGrid's public API, as a user would
 * write it in their own jar. {@code ./streamgrid demo machines} runs it.
 */
package io.streamgrid.examples.machines;
