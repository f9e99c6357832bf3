package io.streamgrid.client;

/**
 * One change of a subscription's result, in write order per key.
 *
 * @param kind      ENTER (starts matching), UPDATE (still matching, new value), LEAVE (stops matching
 *                  or removed; {@code value} is then the last matching value)
 * @param partition the entry's partition
 * @param sequence  the change's sequence in its partition's event journal; -1 for changes a resync
 *                  computed from the map's state rather than read from the journal
 */
public record Delta(Kind kind, Object key, Object value, int partition, long sequence) {
    public enum Kind { ENTER, UPDATE, LEAVE }
}
