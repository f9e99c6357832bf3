package io.streamgrid.jobs.pipeline;

/**
 * An event whose lookup key was not in the dimension map, with the lookup's missing-key policy set
 * to side output: the map {@code unmatched.<job>}, keyed {@code p<partition>-<log index>}.
 *
 * @param partition  log partition
 * @param logIndex   the record's index in that partition
 * @param schema     the event's schema
 * @param key        the event's key
 * @param timestamp  its event time
 * @param sequence   its source sequence number
 * @param map        the dimension map looked up
 * @param lookupKey  the key that was not there
 */
public record UnmatchedEvent(int partition, long logIndex, String schema, String key, long timestamp, long sequence, String map,
                             String lookupKey) {
}
