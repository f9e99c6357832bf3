package io.streamgrid.jobs.pipeline;

/**
 * An event that came too late for some or all of its windows: the side output
 * {@code late.<job>}, keyed {@code p<partition>-<log index>}. Values use Compact serialization.
 *
 * @param partition  ingest-log partition
 * @param logIndex   the record's index in that partition
 * @param type       event type or schema name
 * @param key        the event's key (a long key in decimal)
 * @param timestamp  its event time
 * @param sequence   its source sequence number
 * @param watermark  the partition's watermark when it arrived
 * @param reason     which windows it missed and why
 */
public record LateEvent(int partition, long logIndex, String type, String key, long timestamp, long sequence,
                        long watermark, String reason) {

    public static String mapKey(final int partition, final long logIndex) {
        return "p" + partition + "-" + logIndex;
    }
}
