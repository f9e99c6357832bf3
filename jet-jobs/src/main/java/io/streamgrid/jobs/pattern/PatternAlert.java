package io.streamgrid.jobs.pattern;

/**
 * A completed match, as written to the alerts map: the key (a long key as its decimal text), the
 * pattern, the event times of its first and last events and the matched events, one per line in
 * match order: {@code step schema@time #sequence field=value ...}. Plain values, so any Hazelcast
 * client reads it (Compact form) without the job's classes.
 */
public record PatternAlert(String key, String pattern, long startTime, long endTime, String readings) {

    /** The alerts map key of this alert: unique per match. */
    public String mapKey(final long firstSequence) {
        return key + "|" + pattern + "|" + startTime + "|" + endTime + "|" + firstSequence;
    }
}
