package io.streamgrid.client;

/** A test value: the n-th write of a key has version n; bucket and tag decide which queries match. */
public record Tick(long key, long version, long bucket, String tag) {
}
