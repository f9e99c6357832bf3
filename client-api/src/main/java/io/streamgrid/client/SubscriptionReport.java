package io.streamgrid.client;

/**
 * What a running subscription says about itself, for the members' status page and metrics: every
 * couple of seconds it writes this into the cluster map {@link #MAP}, keyed by {@link #id()}, each
 * entry expiring {@link #TTL_SECONDS} s after its last write (a subscription whose client died
 * disappears by itself); a closed subscription removes its entry.
 *
 * @param client         the Hazelcast client's name (its instance name)
 * @param where          the subscription's predicate text
 * @param state          {@link Subscription.State} name
 * @param queued         deltas received and not yet handed to the listener: how far it is behind
 * @param reportedAtMs   wall clock of the report
 */
public record SubscriptionReport(String id, String client, String map, String where, String state, long delivered, long resyncs,
                                 long overflows, long listenerErrors, long queued, long reportedAtMs) {
    /** The map the reports are in. */
    public static final String MAP = "streamgrid.subscriptions";
    public static final int TTL_SECONDS = 10;
    /** How often a subscription reports. */
    public static final long EVERY_MS = 2_000;
}
