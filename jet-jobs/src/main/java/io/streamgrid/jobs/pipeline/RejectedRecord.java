package io.streamgrid.jobs.pipeline;

/**
 * A record in the ingest log that is not a valid event: the map {@code rejected.<job>}, keyed
 * {@code p<partition>-<log index>}. The job counts it and goes on.
 *
 * @param partition ingest-log partition
 * @param logIndex  the record's index
 * @param length    its length in bytes
 * @param reason    what is wrong with it
 * @param headHex   its first bytes, hex, for diagnosis
 */
public record RejectedRecord(int partition, long logIndex, int length, String reason, String headHex) {
}
