/**
 * What applications use: {@link io.streamgrid.client.StreamGridClient} (get, getAll, query, subscribe,
 * localView), {@link io.streamgrid.client.Delta}, {@link io.streamgrid.client.LocalView}. The
 * implementation is in {@code impl}.
 */
package io.streamgrid.client;
