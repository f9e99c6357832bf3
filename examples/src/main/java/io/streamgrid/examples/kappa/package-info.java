/**
 * The Kappa enrichment example: web access-log lines, parsed and validated on load
 * ({@code ingest load FILE --schema access --format accesslog}), joined per request with the
 * {@code dim.users} dimension held in the grid, rolled up per user into the serving map
 * {@code state.user-activity} — written only against StreamGrid's public API.
 */
package io.streamgrid.examples.kappa;
