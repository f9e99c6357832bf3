/**
 * The trading example: positions, realised P&amp;L and exposure per account from a stream of
 * trades, with an exposure-limit alert — written only against StreamGrid's public API (a schema,
 * a {@link io.streamgrid.jobs.keyed.KeyedFunction}, a {@link io.streamgrid.jobs.keyed.StreamGridJob}),
 * as a user would write it in their own jar. {@code ./streamgrid demo trading} runs it.
 */
package io.streamgrid.examples.trading;
