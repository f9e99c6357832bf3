/**
 * What applications use: connect to a StreamGrid cluster, get and query state, subscribe to
 * continuous queries and keep a {@code LocalView}.
 *
 * <p>Not built yet: see the continuous-query issue. Until then applications use the Hazelcast
 * client directly, as the grid-node demo does.
 */
package io.streamgrid.client;
